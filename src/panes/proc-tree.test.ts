import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProcTree } from './proc-tree.ts';

const root = mkdtempSync(join(tmpdir(), 'muster-proc-tree-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A stat line with fields 3.. as given after `state`; the rest zero-filled to 52 fields. */
const stat = (pid: number, comm: string, ppid: number, pgrp: number, tty: number, tpgid: number, start: number): string => {
  const f = ['S', ppid, pgrp, pgrp, tty, tpgid, ...Array(13).fill(0), start, ...Array(30).fill(0)];
  return `${pid} (${comm}) ${f.join(' ')}\n`;
};

test('the tree comes from <pid>/stat alone: parents, tty, groups; comm with ") (" does not shift fields', () => {
  const dir = join(root, 'a');
  const put = (pid: number, text: string) => {
    mkdirSync(join(dir, String(pid)), { recursive: true });
    writeFileSync(join(dir, String(pid), 'stat'), text);
  };
  put(1, stat(1, 'init', 0, 1, 0, -1, 1));
  put(40, stat(40, 'bash', 1, 40, 34816, 41, 100));
  put(41, stat(41, 'x) (y 9 9', 40, 41, 34816, 41, 120));
  put(42, 'garbage');
  mkdirSync(join(dir, '43')); // exited between readdir and read: no stat file
  mkdirSync(join(dir, 'self'), { recursive: true });
  const t = readProcTree(dir, () => 7);
  assert.deepEqual([...t.byPid.keys()].sort((a, b) => a - b), [1, 40, 41]);
  const p = t.byPid.get(41);
  assert.deepEqual([p?.comm, p?.ppid, p?.pgrp, p?.ttyNr, p?.tpgid, p?.startTicks], ['x) (y 9 9', 40, 41, 34816, 41, 120]);
  assert.deepEqual(t.children.get(40), [41]);
  assert.equal(t.takenAtMs, 7);
});

test('the real /proc: this process is in the tree under its parent (the shared buffer holds no leftovers)', () => {
  const a = readProcTree();
  const b = readProcTree();
  const me = b.byPid.get(process.pid);
  assert.equal(me?.ppid, process.ppid);
  assert.ok(b.children.get(process.ppid)?.includes(process.pid));
  assert.equal(a.byPid.get(process.pid)?.startTicks, me?.startTicks);
});

test('a missing root is an empty tree', () => {
  assert.equal(readProcTree(join(root, 'none')).byPid.size, 0);
});
