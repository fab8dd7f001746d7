import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEventBus } from '../events/index.ts';
import type { Goals } from '../goals/index.ts';
import type { Hub } from '../hub/index.ts';
import type { Inbox } from '../inbox/index.ts';
import { watchServerTurns } from './server-turns.ts';

/** A promptable idle OpenCode session with an active goal and a reply newer than the goal. */
function setup() {
  const bus = createEventBus();
  let now = Date.parse('2026-12-01T10:00:00Z');
  const judged: string[] = [];
  let replyAt = '2026-12-01T10:00:05.000Z';
  const session = { id: 'ses_1', harness: 'opencode', promptable: true, status: 'idle', tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, model: null, cwd: '/w' };
  // Only the members watchServerTurns reads; the casts say so.
  const hub = {
    get: (id: string) => (id === session.id ? session : undefined),
    source: () => ({ tail: async () => [{ role: 'assistant', text: 'done a step', at: replyAt }] }),
  } as unknown as Hub;
  const inbox = { listening: () => false } as unknown as Inbox;
  const goals = {
    forSession: async () => ({ status: 'active', createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T10:00:00.000Z' }),
    onTurnFinished: async (t: { lastAssistantText: string }) => { judged.push(t.lastAssistantText); return { decision: 'stop' }; },
  } as unknown as Goals;
  const stop = watchServerTurns({ bus, hub, inbox, goals, log: () => {}, clock: () => now });
  const settle = () => new Promise((r) => setTimeout(r, 20));
  return {
    bus, judged, stop, settle,
    statusChanged: () => bus.publish('session.status.changed', { id: 'ses_1' } as never),
    hookEvent: () => bus.publish('hook.event.received', { harness: 'opencode', event: 'session.status', sessionId: 'ses_1', launchId: null, status: null, waitingFor: null }),
    later: (ms: number, at: string) => { now += ms; replyAt = at; },
  };
}

test('a promptable session whose plugin sends hook events is left to the plugin; without them for a minute it is judged here', async () => {
  const t = setup();
  try {
    t.hookEvent();
    t.statusChanged();
    await t.settle();
    assert.deepEqual(t.judged, [], 'the plugin reports this turn itself: judging it here too would count it twice');
    t.later(61_000, '2026-12-01T10:01:10.000Z');
    t.statusChanged();
    await t.settle();
    assert.deepEqual(t.judged, ['done a step'], 'a minute without hook events: hosted without the plugin now');
  } finally {
    t.stop();
  }
});

test('a promptable session no reporter speaks for is judged from its transcript once per reply', async () => {
  const t = setup();
  try {
    t.statusChanged();
    await t.settle();
    t.statusChanged();
    await t.settle();
    assert.deepEqual(t.judged, ['done a step']);
  } finally {
    t.stop();
  }
});
