// Goal routes through the real app (guards included), with the in-memory repository and a fake auditor.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../app.ts';
import { goalRoutes } from './goals.ts';
import { createGoals } from '../../goals/index.ts';
import { createMemoryGoalsRepository } from '../../goals/memory-repo.test-support.ts';

const TOKEN = 't'.repeat(32);
const SID = '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';

function rig() {
  const events: string[] = [];
  const goals = createGoals({
    repo: createMemoryGoalsRepository(),
    settings: async () => ({}),
    auditorFor: () => ({ spec: 'fake', audit: async () => ({ ok: true, verdict: { allDone: true, remaining: [], needsUser: false }, tokens: 5 }) }),
    publish: (t) => events.push(t),
  });
  const app = createApp({ token: TOKEN, getPort: () => 80, routes: [goalRoutes({ goals, harnessOf: (id) => (id === SID ? 'claude' : undefined) })] });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(`http://127.0.0.1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, host: '127.0.0.1', origin: 'http://127.0.0.1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads loose JSON
  };
  return { call, events };
}

it('set, show, pause, resume, turn, clear: the whole control surface', async () => {
  const { call, events } = rig();
  assert.equal((await call('POST', '/api/goals', { sessionId: SID, objective: '  ' })).body.error.code, 'invalid_argument');
  const set = await call('POST', '/api/goals', { sessionId: SID, objective: 'ship it', tokenBudget: 'off', maxTurns: 3 });
  assert.equal(set.status, 201);
  assert.equal(set.body.goal.tokenBudget, null);
  assert.equal((await call('GET', `/api/goals/${SID}`)).body.goal.objective, 'ship it');
  assert.equal((await call('POST', `/api/goals/${set.body.goal.id}/pause`)).body.goal.status, 'paused');
  assert.equal((await call('POST', `/api/goals/${SID}/resume`)).body.goal.status, 'active');
  const turn = await call('POST', '/api/goals/turn', { sessionId: SID, harness: 'claude', lastAssistantText: 'done', tokens: 10 });
  assert.equal(turn.body.decision, 'stop');
  assert.equal(turn.body.goal.status, 'complete');
  assert.equal((await call('GET', '/api/goals?status=complete')).body.goals.length, 1);
  assert.equal((await call('DELETE', `/api/goals/${SID}`)).body.cleared, set.body.goal.id);
  assert.equal((await call('POST', `/api/goals/${SID}/clear`)).body.cleared, null, 'clear always works, even twice');
  assert.equal((await call('GET', `/api/goals/${SID}`)).status, 404);
  assert.equal((await call('GET', '/api/goals/nope')).body.error.code, 'invalid_id');
  assert.ok(events.includes('goal.settled') && events.includes('goal.audited'));
});

it('an unknown session needs its harness', async () => {
  const { call } = rig();
  const other = '11111111-2222-4333-8444-555555555555';
  assert.equal((await call('POST', '/api/goals', { sessionId: other, objective: 'x' })).status, 404);
  assert.equal((await call('POST', '/api/goals', { sessionId: other, harness: 'codex', objective: 'x' })).status, 201);
});
