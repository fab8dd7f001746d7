import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFakeProc } from '../../test/fakes/fake-proc.ts';
import { createTmuxPanes } from './tmux.ts';

// A tmux server (pid 10) with two panes whose first processes own ttys, and a status job without one.
const SERVER = 10;
const listing = (panes: [string, number][]): string => panes.map(([id, pid]) => `${id}\t${pid}\t${SERVER}\tbash\t/home\twin`).join('\n') + '\n';

function setup() {
  const proc = createFakeProc({
    processes: [
      { pid: SERVER, ppid: 1, startTicks: 5 },
      { pid: 11, ppid: SERVER, ttyNr: 34816, startTicks: 6 },
      { pid: 12, ppid: SERVER, ttyNr: 34817, startTicks: 7 },
    ],
  });
  let panes: [string, number][] = [['%0', 11], ['%1', 12]];
  const calls: string[][] = [];
  let now = 1000;
  const m = createTmuxPanes({
    socket: '/nowhere',
    listTtlMs: 10_000,
    clock: () => now,
    exec: async (args) => {
      calls.push(args);
      return args[0] === 'list-panes' ? listing(panes) : '';
    },
  });
  const lists = () => calls.filter((c) => c[0] === 'list-panes').length;
  return { proc, m, lists, setPanes: (p: [string, number][]) => (panes = p), advance: (ms: number) => (now += ms) };
}

test('a rebuild with the same pane processes reuses the last listing (no tmux exec)', async () => {
  const { proc, m, lists } = setup();
  assert.equal((await m.listPanes(proc.snapshot())).length, 2);
  assert.equal((await m.listPanes(proc.snapshot())).length, 2);
  assert.equal(lists(), 1);
  // Without a table the caller asks for a fresh answer, and the cached one is dropped.
  await m.listPanes();
  assert.equal(lists(), 2);
  await m.listPanes(proc.snapshot());
  assert.equal(lists(), 3);
  await m.listPanes(proc.snapshot());
  assert.equal(lists(), 3);
});

test('a new pane, a dead pane or a respawned pane process lists afresh', async () => {
  const { proc, m, lists, setPanes } = setup();
  await m.listPanes(proc.snapshot());
  proc.add({ pid: 13, ppid: SERVER, ttyNr: 34818, startTicks: 9 });
  setPanes([['%0', 11], ['%1', 12], ['%2', 13]]);
  assert.deepEqual((await m.listPanes(proc.snapshot())).map((p) => p.ref.id), ['%0', '%1', '%2']);
  assert.equal(lists(), 2);
  proc.remove(12);
  setPanes([['%0', 11], ['%2', 13]]);
  assert.deepEqual((await m.listPanes(proc.snapshot())).map((p) => p.ref.id), ['%0', '%2']);
  assert.equal(lists(), 3);
  proc.setStartTicks(11, 50); // respawn-pane: same pid number, a new process
  await m.listPanes(proc.snapshot());
  assert.equal(lists(), 4);
});

test('a server job without a tty does not invalidate; a restarted server or an old entry does', async () => {
  const { proc, m, lists, advance } = setup();
  await m.listPanes(proc.snapshot());
  proc.add({ pid: 20, ppid: SERVER, ttyNr: 0 }); // status-line #() job
  await m.listPanes(proc.snapshot());
  assert.equal(lists(), 1);
  advance(10_001);
  await m.listPanes(proc.snapshot());
  assert.equal(lists(), 2, 'older than listTtlMs: listed afresh');
  proc.remove(SERVER);
  await m.listPanes(proc.snapshot());
  assert.equal(lists(), 3, 'the server is gone from the table');
});
