// GET /api/sessions names the last event its listing reflects (`eventId`), so a client that held the
// stream's events while it fetched applies only the later ones (src/events/held-events.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../app.ts';
import { sessionRoutes } from './sessions.ts';
import { createEventBus } from '../../events/index.ts';
import { emptyTokens, type Session } from '../../core/session.ts';
import type { Hub } from '../../hub/index.ts';

const TOKEN = 'c'.repeat(43);
const PORT = 7003;
const ID = '0c0c0c0c-0000-4000-8000-000000000003';
const one: Session = {
  harness: 'claude', id: ID, title: 't', cwd: null, repoRoot: null, branch: null, live: false, pid: null, pids: [], status: 'idle', waitingFor: null,
  statusSince: null, startedAt: null, lastActivityAt: null, model: null, tokens: emptyTokens(), costUsd: null, prLinks: [], pane: null, canEnd: false, resumeArgv: null,
};
const hub = { ready: async () => {}, list: () => [one], get: () => undefined, indexing: () => ({ active: false, done: 0, total: 0, bytesDone: 0, bytesTotal: 0, sources: [] }) } as unknown as Hub;
const get = async (app: ReturnType<typeof createApp>) =>
  (await (await app.request(`http://127.0.0.1:${PORT}/api/sessions`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { sessions: Session[]; eventId?: number };

test('the listing carries the bus\'s last event id, taken with the list', async () => {
  const bus = createEventBus();
  const app = createApp({ token: TOKEN, getPort: () => PORT, routes: [sessionRoutes({ hub, eventId: () => bus.lastId() })] });
  assert.equal((await get(app)).eventId, 0, 'no event yet');
  for (let i = 0; i < 3; i++) bus.publish('session.upserted', { session: one });
  const body = await get(app);
  assert.equal(body.eventId, 3);
  assert.deepEqual(body.sessions.map((s) => s.id), [ID]);
});

test('without a bus the listing names no event id', async () => {
  const app = createApp({ token: TOKEN, getPort: () => PORT, routes: [sessionRoutes({ hub })] });
  assert.equal('eventId' in (await get(app)), false);
});

test('waitIndexMs holds the listing until the cold index is over, at most that long; a bad value is a 400', async (t) => {
  let indexed!: () => void;
  let active = true;
  const indexing = { ...hub, indexing: () => ({ active, done: 0, total: 1, bytesDone: 0, bytesTotal: 1, sources: [] }), indexed: () => new Promise<void>((r) => (indexed = r)) } as unknown as Hub;
  const app = createApp({ token: TOKEN, getPort: () => PORT, routes: [sessionRoutes({ hub: indexing })] });
  const ask = async (q: string): Promise<Response> => app.request(`http://127.0.0.1:${PORT}/api/sessions?${q}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  let answered = false;
  const held = ask('waitIndexMs=60000').then(async (r) => {
    answered = true;
    return (await r.json()) as { indexing: { active: boolean } };
  });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(answered, false, 'held while the index runs');
  active = false;
  indexed();
  assert.equal((await held).indexing.active, false, 'answered once it is over, with the whole listing');
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const timed = ask('waitIndexMs=2000');
  await new Promise<void>((r) => setImmediate(r));
  t.mock.timers.tick(2000);
  assert.equal((await timed).status, 200, 'an index still running after waitIndexMs: the listing so far');
  t.mock.timers.reset();
  for (const bad of ['-1', 'x', '60001', '1.5']) {
    const r = await ask(`waitIndexMs=${bad}`);
    assert.equal(r.status, 400, bad);
    assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'invalid_argument');
  }
});
