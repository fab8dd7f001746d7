import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHub } from './hub.ts';
import { createHookStatus } from './hook-status.ts';
import { createEventBus, type MusterEvent } from '../events/index.ts';
import type { SessionSource } from '../discovery/contract.ts';
import { emptyTokens, type Session } from '../core/session.ts';

const ID = '33333333-3333-4333-8333-333333333333';

function session(over: Partial<Session> = {}): Session {
  return {
    harness: 'claude', id: ID, title: 'from files', cwd: '/w', repoRoot: null, branch: null, live: true, pid: 4242, pids: [4242],
    status: 'idle', waitingFor: null, statusSince: '2026-01-01T00:00:00.000Z', startedAt: null, lastActivityAt: null, model: null,
    tokens: emptyTokens(), costUsd: null, prLinks: [], pane: null, canEnd: true, resumeArgv: null, ...over,
  };
}

function source(list: () => Session[]): SessionSource {
  return {
    harness: 'claude',
    list: async () => list(),
    get: async () => undefined,
    watch: () => () => {},
    end: async () => ({ outcome: 'not_running', reason: 'fake' }),
    resumeArgv: () => null,
    isValidId: () => true,
    diagnostics: () => ({ harness: 'claude', filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, staleRegistryFiles: 0, notRegularFiles: 0, errors: [] }),
  };
}

test('a hook event changes the status of a live session at once and publishes session.status.changed', async () => {
  const bus = createEventBus();
  const events: MusterEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const overlay = createHookStatus();
  let current = session();
  const hub = createHub({ sources: [source(() => [current])], bus, isAlive: () => true, overlay });
  await hub.start();
  events.length = 0;
  overlay.record({ harness: 'claude', sessionId: ID, status: 'waiting', waitingFor: 'permission: Write', pid: 4242, at: Date.now() });
  assert.equal(hub.get(ID)?.status, 'waiting');
  assert.equal(hub.get(ID)?.waitingFor, 'permission: Write');
  const changed = events.find((e) => e.type === 'session.status.changed')?.data as { status: string; previous: { status: string } };
  assert.equal(changed.status, 'waiting');
  // A re-list from files (still 'idle' with an old statusSince) does not undo the hook's status.
  await hub.refresh();
  assert.equal(hub.get(ID)?.status, 'waiting');
  // Once the process is gone the files are the truth again.
  current = session({ live: false, pid: null, pids: [], status: 'ended' });
  await hub.refresh();
  assert.equal(hub.get(ID)?.status, 'ended');
  assert.equal(overlay.has('claude', ID), false, 'the entry is dropped when the process is gone');
  await hub.close();
});

test('files win when their status changed well after the last hook event; another pid is not this hook', () => {
  const overlay = createHookStatus({ fileWinsAfterMs: 1000 });
  const at = Date.parse('2026-01-01T00:00:10.000Z');
  overlay.record({ harness: 'claude', sessionId: ID, status: 'working', waitingFor: null, pid: 4242, at });
  assert.equal(overlay.apply(session({ statusSince: '2026-01-01T00:00:10.500Z' })).status, 'working', 'near tie: the hook wins');
  assert.equal(overlay.apply(session({ statusSince: '2026-01-01T00:00:20.000Z' })).status, 'idle', 'newer file status wins');
  assert.equal(overlay.apply(session({ pid: 999, pids: [999] })).status, 'idle', 'a different process resumed the session');
});

test('a launch name becomes the title; waitingFor is cleared outside waiting', () => {
  const overlay = createHookStatus();
  overlay.setName('claude', ID, 'demo');
  overlay.record({ harness: 'claude', sessionId: ID, status: 'working', waitingFor: 'stale', pid: null, at: Date.now() });
  const s = overlay.apply(session({ status: 'waiting', waitingFor: 'permission' }));
  assert.equal(s.title, 'demo');
  assert.equal(s.status, 'working');
  assert.equal(s.waitingFor, null);
  assert.equal(overlay.apply(session({ harness: 'codex' })).title, 'from files', 'keyed by harness too');
});

test('a hook event from one of two processes sets that process\'s status, not the other\'s', () => {
  const overlay = createHookStatus();
  const proc = (pid: number) => ({ pid, status: 'idle' as const, waitingFor: null, statusSince: null, pane: null, startedAt: null });
  const s = session({ pid: 4242, pids: [4242, 4343], processes: [proc(4242), proc(4343)] });
  overlay.record({ harness: 'claude', sessionId: ID, status: 'waiting', waitingFor: 'approve Bash', pid: 4343, at: Date.parse('2026-01-01T00:00:05.000Z') });
  const out = overlay.apply(s);
  assert.equal(out.status, 'waiting');
  assert.deepEqual(out.processes?.map((p) => [p.pid, p.status, p.waitingFor]), [[4242, 'idle', null], [4343, 'waiting', 'approve Bash']]);
  assert.equal(overlay.apply(session()).processes, undefined, 'a session without processes keeps none');
});

test('a hook event makes an unknown status known', () => {
  const overlay = createHookStatus();
  overlay.record({ harness: 'claude', sessionId: ID, status: 'working', waitingFor: null, pid: 4242, at: Date.now() });
  const out = overlay.apply(session({ status: 'idle', statusKnown: false, statusSince: null }));
  assert.equal(out.status, 'working');
  assert.equal('statusKnown' in out, false);
  overlay.record({ harness: 'claude', sessionId: ID, status: 'idle', waitingFor: null, pid: 4242, at: Date.now() });
  assert.equal('statusKnown' in overlay.apply(session({ status: 'idle', statusKnown: false, statusSince: null })), false, 'also when the status itself is the same');
});
