// Steering routes in a fleet, with no socket and no database: another host's target is relayed to a
// stand-in fleet and its answer returned as it is (an error names the host); focus on another host's
// session is refused with the command to run there; another host's command is never relayed again;
// fleet membership input is checked (4xx with stable codes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from './app.ts';
import { actionRoutes } from './routes/actions.ts';
import { pageRoutes } from './routes/pages.ts';
import { fleetRoutes } from './routes/fleet.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { FLEET_COMMAND_HEADER, type FleetView } from './fleet-routing.ts';
import { MusterError } from '../errors/index.ts';
import { emptyTokens, type Session } from '../core/session.ts';
import type { CommandAnswer, CommandKind } from '../fleet/types.ts';
import type { Actions } from '../hub/index.ts';
import type { Hub } from '../hub/index.ts';
import type { Page, Pager } from '../pager/index.ts';

const TOKEN = 'b'.repeat(43);
const PORT = 7002;
const REMOTE = '0a0a0a0a-0000-4000-8000-000000000001';
const LOCAL = '0b0b0b0b-0000-4000-8000-000000000002';
const PAGE = 'pag_01JB2Z3Y4X5W6V7T8S9R0QPNMK';
const session = (id: string, over: Partial<Session> = {}): Session => ({
  harness: 'claude', id, title: id, cwd: null, repoRoot: null, branch: null, live: true, pid: 9, pids: [9], status: 'idle', waitingFor: null,
  statusSince: null, startedAt: null, lastActivityAt: null, model: null, tokens: emptyTokens(), costUsd: null, prLinks: [], pane: null, canEnd: true, resumeArgv: null, ...over,
});
const remote = session(REMOTE, { host: 'gpu', hostId: 'hst_gggggggggggggggggggggggggg', hostReachable: true, readOnly: false });

const sent: { kind: CommandKind; args: Record<string, unknown>; host: string }[] = [];
let answer: CommandAnswer = { status: 204, body: null };
const fleet: FleetView = {
  localName: () => 'laptop',
  sessions: () => [remote],
  session: (id) => (id === REMOTE ? remote : undefined),
  pages: () => [{ id: PAGE, status: 'pending', kind: 'question', host: 'gpu', hostId: 'hst_gggggggggggggggggggggggggg' } as Page],
  page: (id) => (id === PAGE ? ({ id: PAGE, host: 'gpu', hostId: 'hst_gggggggggggggggggggggggggg' } as Page) : undefined),
  goals: () => [],
  goal: () => undefined,
  run: async (owner, kind, args) => {
    sent.push({ kind, args, host: owner.name });
    return answer;
  },
};
const localEnded: string[] = [];
const actions = { end: async (id: string) => void localEnded.push(id), focus: async () => ({ outcome: 'focused' }), decorate: (s: Session) => s } as unknown as Actions;
const hub = { ready: async () => {}, list: () => [session(LOCAL)], get: (id: string) => (id === LOCAL ? session(LOCAL) : undefined), diagnostics: () => ({}), indexing: () => ({ active: false, done: 0, total: 0, bytesDone: 0, bytesTotal: 0, sources: [] }) } as unknown as Hub;
const pager = { answer: async () => { throw new MusterError('page_not_found', 'no page'); } } as unknown as Pager;
const joined: { url: string; name?: string }[] = [];
const app = createApp({
  token: TOKEN, getPort: () => PORT, logError: () => {},
  routes: [
    sessionRoutes({ hub, fleet }),
    actionRoutes({ actions, fleet, local: async (id) => hub.get(id) }),
    pageRoutes({ pager, fleet }),
    fleetRoutes({ fleet: { status: () => ({ joined: false }), join: async (url, name) => (joined.push({ url, name }), { joined: true }), leave: async () => ({ left: true, removedFromDatabase: true }) } }),
  ],
});
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request(`http://127.0.0.1:${PORT}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

test('listing: this host\'s sessions carry its name, another host\'s theirs; ?host= keeps one host', async () => {
  const all = (await (await app.request(`http://127.0.0.1:${PORT}/api/sessions`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { sessions: Session[] };
  assert.deepEqual(all.sessions.map((s) => [s.id, s.host]).sort(), [[LOCAL, 'laptop'], [REMOTE, 'gpu']].sort());
  const gpu = (await (await app.request(`http://127.0.0.1:${PORT}/api/sessions?host=gpu`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { sessions: Session[] };
  assert.deepEqual(gpu.sessions.map((s) => s.id), [REMOTE]);
  const bad = await app.request(`http://127.0.0.1:${PORT}/api/sessions?host=%00`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(bad.status, 400);
});

test('ending another host\'s session is relayed to it; its answer comes back as it is', async () => {
  sent.length = 0;
  answer = { status: 204, body: null };
  const r = await post('/api/end', { sessionId: REMOTE, pid: 9 });
  assert.equal(r.status, 204);
  assert.deepEqual(sent, [{ kind: 'session.end', args: { sessionId: REMOTE, pid: 9 }, host: 'gpu' }]);
  assert.deepEqual(localEnded, []);
  answer = { status: 409, body: { ok: false, error: { code: 'not_running', message: 'session is not running' } } };
  const e = await post('/api/end', { sessionId: REMOTE });
  assert.equal(e.status, 409);
  assert.deepEqual(await e.json(), { ok: false, error: { code: 'not_running', message: 'host "gpu": session is not running', host: 'gpu' } });
});

test('a page of another host is answered there; only the answer\'s fields cross', async () => {
  sent.length = 0;
  answer = { status: 200, body: { ok: true, page: { id: PAGE, status: 'answered' } } };
  const r = await post(`/api/pages/${PAGE}/answer`, { text: 'yes', extra: 'dropped' });
  assert.equal(r.status, 200);
  assert.deepEqual(sent, [{ kind: 'page.answer', args: { pageId: PAGE, text: 'yes' }, host: 'gpu' }]);
});

test('focus on another host\'s session names the host and the command to run there', async () => {
  const r = await post('/api/focus', { sessionId: REMOTE });
  assert.equal(r.status, 409);
  const body = (await r.json()) as { error: { code: string; host: string; command: string } };
  assert.deepEqual([body.error.code, body.error.host, body.error.command], ['remote_session', 'gpu', `muster focus ${REMOTE}`]);
});

test('another host\'s command is run here or fails here, never relayed again', async () => {
  sent.length = 0;
  const r = await post('/api/end', { sessionId: REMOTE, via: 'fleet' }, { [FLEET_COMMAND_HEADER]: 'hst_gggggggggggggggggggggggggg' });
  assert.deepEqual(sent, []);
  assert.deepEqual(localEnded, [REMOTE], 'handed to this host\'s own actions (the real ones answer session_not_found for it)');
  assert.equal(r.status, 204);
});

test('fleet membership input: a URL is required, in the body', async () => {
  assert.equal((await post('/api/fleet/join', {})).status, 400);
  assert.equal((await post('/api/fleet/join', { url: 42 })).status, 400);
  assert.equal((await post('/api/fleet/join', { url: 'postgres://h/d', name: 'x'.repeat(65) })).status, 400);
  assert.equal((await post('/api/fleet/join', { url: 'postgres://h/d', name: 'box' })).status, 200);
  assert.deepEqual(joined, [{ url: 'postgres://h/d', name: 'box' }]);
});

test('SSE in a fleet: this host\'s own records carry its name; another host\'s keep theirs; outside a fleet nothing changes', async () => {
  const { createEventBus } = await import('../events/index.ts');
  const { stampHost } = await import('./fleet-routing.ts');
  const bus = createEventBus();
  const mine = bus.publish('session.upserted', { session: session(LOCAL) });
  const theirs = bus.publish('session.upserted', { session: remote });
  assert.equal((stampHost(mine, 'laptop') as { session: Session }).session.host, 'laptop');
  assert.equal((stampHost(theirs, 'laptop') as { session: Session }).session.host, 'gpu');
  assert.equal(stampHost(mine, null), mine.data, 'not in a fleet: the data as published');
  const status = bus.publish('session.status.changed', { harness: 'claude', id: REMOTE, status: 'idle', waitingFor: null, live: true, statusSince: null, host: 'gpu', hostId: 'hst_g', previous: { status: 'working', waitingFor: null, live: true } });
  assert.equal((stampHost(status, 'laptop') as { host: string }).host, 'gpu');
  const page = bus.publish('page.opened', { id: PAGE } as Page);
  assert.equal((stampHost(page, 'laptop') as Page).host, 'laptop');
});
