import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFakeProc } from '../../test/fakes/fake-proc.ts';
import { createPaneTracker } from './pane-tracker.ts';
import type { PaneInfo, PaneManager } from './types.ts';

function slowManager(panes: () => PaneInfo[], delayMs: number): PaneManager & { calls: number } {
  const m = {
    kind: 'tmux',
    calls: 0,
    available: async () => true,
    async listPanes() {
      m.calls++;
      const list = panes(); // what the server had when asked
      await new Promise((r) => setTimeout(r, delayMs));
      return list;
    },
    focus: async () => assert.fail('not used'),
    open: async () => assert.fail('not used'),
  };
  return m;
}

test('rebuilds are coalesced: one running and one queued, however many callers', async () => {
  const proc = createFakeProc({ processes: [{ pid: 50, ppid: 1 }] });
  let shell = 50;
  const m = slowManager(() => [{ ref: { manager: 'tmux', id: '%1' }, shellPid: shell, foregroundPids: [], command: null, cwd: null, label: null }], 30);
  const tracker = createPaneTracker({ managers: [m], proc });
  const first = tracker.rebuild();
  shell = 51;
  proc.add({ pid: 51, ppid: 1 });
  const later = Array.from({ length: 10 }, () => tracker.rebuild());
  const maps = await Promise.all([first, ...later]);
  assert.equal(tracker.rebuilds, 2);
  assert.equal(m.calls, 2);
  assert.equal(maps[0]?.get(50)?.id, '%1');
  // Every caller that arrived during the first build sees a map built after it asked.
  for (const map of maps.slice(1)) assert.equal(map.get(51)?.id, '%1');
});

test('a manager that fails to list is logged and counts as no panes; the others still map', async () => {
  const proc = createFakeProc({ processes: [{ pid: 60, ppid: 1 }] });
  const lines: string[] = [];
  const broken: PaneManager = { kind: 'herdr', available: async () => false, listPanes: async () => Promise.reject(new Error('boom')), focus: async () => assert.fail(), open: async () => assert.fail() };
  const ok = slowManager(() => [{ ref: { manager: 'tmux', id: '%2' }, shellPid: 60, foregroundPids: [], command: null, cwd: null, label: null }], 0);
  const tracker = createPaneTracker({ managers: [broken, ok], proc, log: (l) => lines.push(l) });
  const map = await tracker.rebuild();
  assert.equal(map.get(60)?.id, '%2');
  assert.match(lines.join('\n'), /herdr panes unavailable: boom/);
});

test('current() answers the last map at once and refreshes it in the background when stale', async () => {
  const proc = createFakeProc({ processes: [{ pid: 70, ppid: 1 }] });
  let now = 1_000_000;
  const m = slowManager(() => [{ ref: { manager: 'tmux', id: '%7' }, shellPid: 70, foregroundPids: [], command: null, cwd: null, label: null }], 0);
  const tracker = createPaneTracker({ managers: [m], proc, maxAgeMs: 100, clock: () => now });
  assert.equal(tracker.current().get(70), undefined, 'nothing built yet');
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(tracker.current().get(70)?.id, '%7');
  const builds = tracker.rebuilds;
  tracker.current();
  assert.equal(tracker.rebuilds, builds, 'fresh: no rebuild');
  now += 500;
  tracker.current();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(tracker.rebuilds, builds + 1);
});

test('rebuild({ relist }) asks managers for a fresh listing (no table to vouch for an old one)', async () => {
  const proc = createFakeProc({ processes: [{ pid: 50, ppid: 1 }] });
  const seen: boolean[] = [];
  const m: PaneManager = {
    kind: 'tmux',
    available: async () => true,
    listPanes: async (table) => (seen.push(table !== undefined), []),
    focus: async () => assert.fail('not used'),
    open: async () => assert.fail('not used'),
  };
  const tracker = createPaneTracker({ managers: [m], proc });
  await tracker.rebuild();
  await tracker.rebuild({ relist: true });
  await tracker.rebuild();
  assert.deepEqual(seen, [true, false, true]);
});
