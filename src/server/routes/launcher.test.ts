// POST /api/sessions/new and GET /api/worktrees through the real app (guards included): the types of the
// body are checked here, then the request goes to the launcher as it came; GET /api/harnesses says which
// harnesses the New session form can start.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../app.ts';
import { launcherRoutes } from './launcher.ts';
import { harnessRoutes } from './harnesses.ts';
import type { Launcher, NewSessionAnswer, NewSessionRequest } from '../../launcher/index.ts';
import type { Worktrees } from '../../worktrees/index.ts';

const TOKEN = 't'.repeat(32);

function rig() {
  const asked: NewSessionRequest[] = [];
  const launcher: Launcher = {
    start: async (req) => (asked.push(req), { outcome: 'started', launchId: 'lch_0000000000010123456789' } as NewSessionAnswer),
    bound: async () => {},
    ended: () => {},
  };
  const worktrees: Worktrees = { create: async () => { throw new Error('unused'); }, list: async () => [] };
  const app = createApp({ token: TOKEN, getPort: () => 80, routes: [launcherRoutes({ launcher, worktrees }), harnessRoutes({ installed: (h) => h === 'pi' })] });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(`http://127.0.0.1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, host: '127.0.0.1', origin: 'http://127.0.0.1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads loose JSON
  };
  return { call, asked };
}

it('POST /api/sessions/new: 201 with the launcher answer; the request passed on as it came', async () => {
  const { call, asked } = rig();
  const r = await call('POST', '/api/sessions/new', { harness: 'pi', cwd: '/w', worktree: 'x', name: 'n', prompt: ' $(p)\n', goal: { objective: 'o', tokenBudget: '5', maxTurns: 2, auditor: 'openai/m' }, focus: true, waitSeconds: 20 });
  assert.deepEqual([r.status, r.body.ok, r.body.outcome], [201, true, 'started']);
  assert.deepEqual(asked, [{ harness: 'pi', cwd: '/w', worktree: 'x', name: 'n', prompt: ' $(p)\n', goal: { objective: 'o', tokenBudget: '5', maxTurns: 2, auditor: 'openai/m' }, focus: true, waitSeconds: 20 }]);
});

it('POST /api/sessions/new: wrong types are 400 invalid_body before the launcher is asked', async () => {
  const { call, asked } = rig();
  for (const body of [
    { harness: 'nope', cwd: '/w' }, { harness: 'pi' }, { harness: 'pi', cwd: 7 }, { harness: 'pi', cwd: '/w', prompt: 1 }, { harness: 'pi', cwd: '/w', name: ['a'] },
    { harness: 'pi', cwd: '/w', goal: 'text' }, { harness: 'pi', cwd: '/w', goal: {} }, { harness: 'pi', cwd: '/w', focus: 'yes' }, { harness: 'pi', cwd: '/w', waitSeconds: 21 },
    { harness: 'pi', cwd: '/w', waitSeconds: -1 },
  ]) {
    const r = await call('POST', '/api/sessions/new', body);
    assert.deepEqual([r.status, r.body.error?.code], [400, 'invalid_body'], JSON.stringify(body));
  }
  assert.equal(asked.length, 0);
});

it('GET /api/worktrees and GET /api/harnesses (startable where its command is on the daemon\'s PATH)', async () => {
  const { call } = rig();
  assert.deepEqual((await call('GET', '/api/worktrees')).body, { ok: true, worktrees: [] });
  const harnesses = (await call('GET', '/api/harnesses')).body.harnesses as { name: string; startable: boolean }[];
  assert.deepEqual(harnesses.filter((h) => h.startable).map((h) => h.name), ['pi']);
  assert.ok(harnesses.length >= 7);
});
