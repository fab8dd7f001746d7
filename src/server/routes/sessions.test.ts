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
