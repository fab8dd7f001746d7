/**
 * Operator surface of the pager: GET /api/pages (filters: status, kind, sessionId, limit),
 * GET /api/pages/:id, POST /api/pages/:id/answer { text } | { choice }, POST /api/pages/:id/dismiss.
 * Answers are committed before the waiting agent is woken (pager); page text is returned verbatim as
 * JSON strings — the board renders it as plain text.
 *
 * Agent surface over REST, for harnesses with no MCP client (pi; omp reads MCP only from config files
 * the wrapper must not edit): their Muster extension calls POST /api/pages/ask | notify with the same
 * arguments as the MCP tools, POST /api/pages/:id/wait { seconds } (the bounded wait of await_answer)
 * and POST /api/pages/:id/cancel. The caller names itself with the MCP identity headers
 * (x-muster-session-id, x-muster-launch-id, x-muster-harness, x-muster-cwd).
 */
import { LIMITS, PAGE_KINDS, PAGE_STATUSES, resolveAttribution, type Caller, type Page, type Pager, type PageFilter, type SessionLookup } from '../../pager/index.ts';
import { readJsonObject } from '../body.ts';
import { optNonNegative, optOneOf, optSessionIdIn, queryHost, queryInt } from '../input.ts';
import { isFleetCommand, ownerOf, relay, type FleetView } from '../fleet-routing.ts';
import type { Context } from 'hono';
import type { App, AppEnv } from '../env.ts';

/** Who is asking, from the identity headers; a caller with none is counted under its launch or as one anonymous caller. */
function callerOf(c: Context<AppEnv>, sessions: SessionLookup): Caller {
  const h = (name: string): string | undefined => c.req.header(name) ?? undefined;
  const hints = { sessionId: h('x-muster-session-id'), harness: h('x-muster-harness'), launchId: h('x-muster-launch-id'), cwd: h('x-muster-cwd') };
  const attribution = resolveAttribution(hints, sessions);
  return { attribution, fallbackKey: `rest:${attribution.launchId ?? 'anonymous'}` };
}

export function parsePageFilter(q: Record<string, string | undefined>): PageFilter {
  const f: PageFilter = {};
  const status = optOneOf(q.status, PAGE_STATUSES, 'status');
  if (status !== undefined) f.status = status;
  const kind = optOneOf(q.kind, PAGE_KINDS, 'kind');
  if (kind !== undefined) f.kind = kind;
  const sessionId = optSessionIdIn(q.sessionId);
  if (sessionId !== undefined) f.sessionId = sessionId;
  const limit = queryInt(q.limit, 'limit', 1, LIMITS.listedMax);
  if (limit !== undefined) f.limit = limit;
  return f;
}

/** Newest first, as the store lists them (page ids are time-sortable). */
const newestFirst = (a: Page, b: Page): number => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Other hosts' pages that pass the filter (the limit is applied to the merged list). */
function remotePages(fleet: FleetView, f: PageFilter, host: string | undefined): Page[] {
  return fleet.pages().filter((p) => (host === undefined || p.host === host) && (!f.status || p.status === f.status) && (!f.kind || p.kind === f.kind) && (!f.sessionId || p.sessionId === f.sessionId));
}

export function pageRoutes(opts: { pager: Pager; sessions?: SessionLookup; fleet?: FleetView }) {
  const { pager, fleet } = opts;
  /** Another host's page (never for a request that is itself another host's command). */
  const remote = (c: Context<AppEnv>, id: string): Page | undefined => (fleet && !isFleetCommand(c) ? fleet.page(id) : undefined);
  const sessions: SessionLookup = opts.sessions ?? { get: () => undefined, live: () => [] };
  return (app: App) => {
    app.post('/api/pages/ask', async (c) => {
      const page = await pager.ask(await readJsonObject(c), callerOf(c, sessions));
      return c.json({ ok: true, page });
    });
    app.post('/api/pages/notify', async (c) => {
      const page = await pager.notify(await readJsonObject(c), callerOf(c, sessions));
      return c.json({ ok: true, page });
    });
    app.post('/api/pages/:id/wait', async (c) => {
      const seconds = optNonNegative((await readJsonObject(c)).seconds, 'seconds', 'invalid_argument');
      // Capped by the askWaitSeconds setting inside the pager; a client that hangs up stops the wait.
      const outcome = await pager.wait(c.req.param('id'), { waitMs: seconds === undefined ? undefined : seconds * 1000, signal: c.req.raw.signal });
      return c.json({ ok: true, ...outcome });
    });
    app.post('/api/pages/:id/cancel', async (c) => c.json({ ok: true, page: await pager.cancel(c.req.param('id')) }));
    app.get('/api/pages', async (c) => {
      const q = c.req.query();
      const filter = parsePageFilter(q);
      const host = queryHost(q.host);
      const name = fleet?.localName() ?? null;
      const local = host === undefined || (name !== null && host === name) ? (await pager.list(filter)).map((p) => (name ? { ...p, host: name } : p)) : [];
      if (!fleet || name === null) return c.json({ ok: true, pages: local, counts: pager.counts() });
      const pages = [...local, ...remotePages(fleet, filter, host)].sort(newestFirst).slice(0, filter.limit ?? LIMITS.listed);
      return c.json({ ok: true, pages, counts: pager.counts() });
    });
    app.get('/api/pages/:id', async (c) => {
      const other = remote(c, c.req.param('id'));
      return c.json({ ok: true, page: other ?? (await pager.get(c.req.param('id'))) });
    });
    app.post('/api/pages/:id/answer', async (c) => {
      const id = c.req.param('id');
      const body = await readJsonObject(c);
      const owner = ownerOf(remote(c, id));
      if (fleet && owner) return relay(c, fleet, owner, 'page.answer', { pageId: id, ...('text' in body ? { text: body.text } : {}), ...('choice' in body ? { choice: body.choice } : {}) });
      return c.json({ ok: true, page: await pager.answer(id, body, 'operator') });
    });
    app.post('/api/pages/:id/dismiss', async (c) => {
      const owner = ownerOf(remote(c, c.req.param('id')));
      if (fleet && owner) return relay(c, fleet, owner, 'page.dismiss', { pageId: c.req.param('id') });
      return c.json({ ok: true, page: await pager.dismiss(c.req.param('id')) });
    });
  };
}
