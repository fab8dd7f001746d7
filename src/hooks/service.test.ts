import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHookSightings } from './sightings.ts';
import { createHookService } from './service.ts';
import { createHookStatus } from '../hub/hook-status.ts';
import { createEventBus, type MusterEvent } from '../events/index.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

test('sightings: the latest event per (session, process), newest first; a new pair says so', () => {
  const s = createHookSightings();
  assert.equal(s.record('gemini', { sessionId: A, pid: 10, at: 1, status: 'idle', waitingFor: null }), true);
  assert.equal(s.record('gemini', { sessionId: B, pid: 11, at: 2, status: 'working', waitingFor: null }), true);
  assert.equal(s.record('gemini', { sessionId: A, pid: 10, at: 3, status: 'waiting', waitingFor: 'permission' }), false, 'a pair seen before');
  assert.equal(s.record('gemini', { sessionId: A, pid: 12, at: 4, status: 'idle', waitingFor: null }), true, 'the same session in another process');
  assert.deepEqual(s.of('gemini').map((x) => [x.sessionId, x.pid, x.status]), [[A, 12, 'idle'], [A, 10, 'waiting'], [B, 11, 'working']]);
  assert.deepEqual(s.of('claude'), []);
});

test('sightings are bounded per harness: the least recently seen pairs go first', () => {
  const s = createHookSightings({ maxPerHarness: 2 });
  s.record('gemini', { sessionId: A, pid: 1, at: 1, status: 'idle', waitingFor: null });
  s.record('gemini', { sessionId: A, pid: 2, at: 2, status: 'idle', waitingFor: null });
  s.record('gemini', { sessionId: A, pid: 1, at: 3, status: 'working', waitingFor: null });
  s.record('gemini', { sessionId: A, pid: 3, at: 4, status: 'idle', waitingFor: null });
  assert.deepEqual(s.of('gemini').map((x) => x.pid), [3, 1]);
});

function service(clock: () => number) {
  const bus = createEventBus();
  const events: MusterEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const sightings = createHookSightings();
  const refreshed: string[] = [];
  const hooks = createHookService({ overlay: createHookStatus(), bus, sightings, refresh: (h) => refreshed.push(h), clock });
  return { hooks, sightings, refreshed, received: () => events.filter((e) => e.type === 'hook.event.received').length };
}

test('the hook service records each event\'s process as a sighting and re-lists on a new process of a known session', async () => {
  let now = 1000;
  const t = service(() => now);
  await t.hooks.receive({ harness: 'claude', event: 'SessionStart', payload: { session_id: A }, pid: 500, launchId: null });
  assert.deepEqual(t.refreshed, ['claude'], 'first sight of the session');
  now += 10;
  await t.hooks.receive({ harness: 'claude', event: 'UserPromptSubmit', payload: { session_id: A }, pid: 500, launchId: null });
  assert.deepEqual(t.refreshed, ['claude'], 'same session, same process: the overlay alone carries it');
  await t.hooks.receive({ harness: 'claude', event: 'SessionStart', payload: { session_id: A }, pid: 600, launchId: null });
  assert.deepEqual(t.refreshed, ['claude', 'claude'], 'a second process of the session');
  await t.hooks.receive({ harness: 'claude', event: 'Stop', payload: { session_id: A }, pid: null, launchId: null });
  assert.deepEqual(t.sightings.of('claude').map((s) => [s.pid, s.status]), [[600, 'idle'], [500, 'working']], 'an event without a process is no sighting');
});

test('regression: a session-end event fired again right after (Gemini CLI fires it up to three times) is recorded once', async () => {
  let now = 1000;
  const t = service(() => now);
  await t.hooks.receive({ harness: 'claude', event: 'SessionStart', payload: { session_id: A }, pid: 500, launchId: null });
  const first = await t.hooks.receive({ harness: 'claude', event: 'SessionEnd', payload: { session_id: A }, pid: 500, launchId: null });
  now += 400;
  const copy = await t.hooks.receive({ harness: 'claude', event: 'SessionEnd', payload: { session_id: A }, pid: 500, launchId: null });
  const orphan = await t.hooks.receive({ harness: 'claude', event: 'SessionEnd', payload: { session_id: A }, pid: null, launchId: null });
  assert.equal(first.transition?.status, 'ended');
  assert.equal(copy.transition?.status, 'ended', 'the copy is still answered');
  assert.equal(orphan.decision, null);
  assert.equal(t.received(), 2, 'SessionStart and one SessionEnd reached the bus');
  // Ended again after a new start: not a copy.
  now += 100;
  await t.hooks.receive({ harness: 'claude', event: 'SessionStart', payload: { session_id: A }, pid: 700, launchId: null });
  await t.hooks.receive({ harness: 'claude', event: 'SessionEnd', payload: { session_id: A }, pid: 700, launchId: null });
  assert.equal(t.received(), 4);
  now += 20_000;
  await t.hooks.receive({ harness: 'claude', event: 'SessionEnd', payload: { session_id: A }, pid: 700, launchId: null });
  assert.equal(t.received(), 5, 'outside the window an end is recorded again');
});

test('a turn end inside `muster goal run` (the hook marks it) is never decided here: goal run decides', async () => {
  const decided: string[] = [];
  const hooks = createHookService({ overlay: createHookStatus(), bus: createEventBus(), decide: async (input) => (decided.push(input.event), { decision: 'block', reason: 'go on' }) });
  const driven = await hooks.receive({ harness: 'claude', event: 'Stop', payload: { session_id: A, muster_goal_run: true }, pid: 1, launchId: null });
  assert.equal(driven.decision, null);
  assert.equal(driven.transition?.status, 'idle', 'the status is still reported');
  assert.deepEqual((await hooks.receive({ harness: 'claude', event: 'Stop', payload: { session_id: A }, pid: 1, launchId: null })).decision, { decision: 'block', reason: 'go on' });
  assert.deepEqual(decided, ['Stop']);
});
