import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFakeProc } from '../../test/fakes/fake-proc.ts';
import type { ProcessTable } from '../discovery/proc/types.ts';
import { buildPaneMap, paneOfPids } from './pane-map.ts';
import type { PaneInfo } from './types.ts';

const pane = (id: string, shellPid: number, foregroundPids: number[] = []): PaneInfo => ({
  ref: { manager: 'tmux', id, socket: '/s' },
  shellPid,
  foregroundPids,
  command: null,
  cwd: null,
  label: null,
});

test('an agent moved to the background of its shell (a command it ran took the terminal) still maps to its pane', () => {
  // bash(100, tty 1) → agent(101, pgrp 101) → npm test(102, pgrp 102 = the tty's foreground group)
  const proc = createFakeProc({
    processes: [
      { pid: 100, ppid: 1, ttyNr: 1, pgrp: 100, tpgid: 102 },
      { pid: 101, ppid: 100, ttyNr: 1, pgrp: 101, tpgid: 102 },
      { pid: 102, ppid: 101, ttyNr: 1, pgrp: 102, tpgid: 102 },
    ],
  });
  const map = buildPaneMap([pane('%1', 100)], proc.snapshot());
  assert.equal(map.get(101)?.id, '%1');
  assert.equal(map.get(102)?.id, '%1');
  assert.equal(map.get(100)?.id, '%1');
  assert.equal(map.get(999), undefined);
  // Keys typed into %1 reach npm test, not the agent: only the foreground group counts for input.
  assert.equal(map.foreground(102)?.id, '%1');
  assert.equal(map.foreground(101), undefined);
  assert.equal(map.foreground(100), undefined);
  assert.equal(map.process(101)?.pgrp, 101);
});

test('the foreground mapping wins over descent: a process reparented under another pane is placed by its tty', () => {
  // Pane %1's shell (100) is the parent of 201, but 201 is the foreground process of pane %2's tty.
  const proc = createFakeProc({
    processes: [
      { pid: 100, ppid: 1, ttyNr: 1, pgrp: 100, tpgid: 100 },
      { pid: 200, ppid: 1, ttyNr: 2, pgrp: 200, tpgid: 201 },
      { pid: 201, ppid: 100, ttyNr: 2, pgrp: 201, tpgid: 201 },
    ],
  });
  const map = buildPaneMap([pane('%1', 100), pane('%2', 200)], proc.snapshot());
  assert.equal(map.get(201)?.id, '%2');
  assert.equal(map.get(100)?.id, '%1');
});

test('foreground pids reported by the manager (herdr) win too', () => {
  const proc = createFakeProc({ processes: [{ pid: 300, ppid: 1 }, { pid: 301, ppid: 300 }] });
  const map = buildPaneMap([pane('w1:p1', 300), pane('w1:p2', 0, [301])], proc.snapshot());
  assert.equal(map.get(301)?.id, 'w1:p2');
  assert.equal(map.get(300)?.id, 'w1:p1');
});

test('a process table with a cycle is walked once per pid and ends', () => {
  const table: ProcessTable = { byPid: new Map(), children: new Map([[10, [11]], [11, [12]], [12, [10, 11]]]), bootTimeMs: 0, takenAtMs: 0 };
  const map = buildPaneMap([pane('%9', 10)], table);
  assert.deepEqual([10, 11, 12].map((p) => map.get(p)?.id), ['%9', '%9', '%9']);
  assert.equal(map.size, 3);
});

test('paneOfPids answers the first pid that has a pane', () => {
  const proc = createFakeProc({ processes: [{ pid: 400, ppid: 1 }] });
  const map = buildPaneMap([pane('%4', 400)], proc.snapshot());
  assert.equal(paneOfPids(map, [12345, 400])?.id, '%4');
  assert.equal(paneOfPids(map, [12345]), undefined);
});
