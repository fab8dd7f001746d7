import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFakeProc } from './fake-proc.ts';

it('fake proc: table, pid reuse, locks released on exit, signals recorded', () => {
  const fake = createFakeProc({
    processes: [{ pid: 10, argv: ['/usr/bin/codex', 'app-server'] }, { pid: 11, ppid: 10 }, {}],
    locks: [{ path: '/h/a.lock', pids: [10] }],
  });
  const t = fake.snapshot();
  assert.equal(t.byPid.size, 3);
  assert.equal(t.byPid.get(10)?.comm, 'codex');
  assert.deepEqual(t.children.get(10), [11]);
  assert.equal(t.byPid.get(1000)?.ppid, 1, 'auto pid and defaults');
  assert.equal(fake.startTicks(10), 1000);
  fake.setStartTicks(10, 5000);
  assert.equal(fake.read(10)?.startTicks, 5000);
  assert.equal(fake.probeLock('/h/a.lock'), true);
  assert.deepEqual(fake.lockHolders('/h/a.lock'), [10]);
  assert.equal(fake.locks().length, 1);
  assert.equal(fake.probeLock('/h/other.lock'), false);
  assert.equal(fake.signal(11, 'SIGUSR1'), true, 'non-exit signal keeps it alive');
  assert.equal(fake.isAlive(11), true);
  assert.equal(fake.signal(10, 'SIGTERM'), true);
  assert.equal(fake.isAlive(10), false);
  assert.equal(fake.probeLock('/h/a.lock'), false, 'exit released the lock');
  assert.equal(fake.signal(10, 'SIGTERM'), false);
  assert.deepEqual(fake.signals.map((s) => [s.pid, s.signal, s.delivered]), [[11, 'SIGUSR1', true], [10, 'SIGTERM', true], [10, 'SIGTERM', false]]);
  assert.equal(createFakeProc({ lockSupport: false }).probeLock('/x'), null);
});

it('fake proc: a lock path that exists reports its real inode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'muster-fake-proc-'));
  try {
    const file = join(dir, 'x.lock');
    writeFileSync(file, '');
    const fake = createFakeProc({ processes: [{ pid: 5 }], locks: [{ path: file, pids: [5] }, { path: '/nowhere/y.lock', pids: [5] }] });
    const inodes = fake.locks().map((l) => l.inode).sort((a, b) => a - b);
    assert.equal(inodes.length, 2);
    assert.ok(inodes.includes(statSync(file).ino), 'the real inode');
    assert.ok(inodes.includes(10_000), 'a made-up one for the missing path');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
