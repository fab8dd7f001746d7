/**
 * Search and reading:
 *   GET /api/search?q=&harness=&limit=  → { ok, results: [{ session, hits: [{ role, at, snippet, marks, position }] }] }
 *   GET /api/sessions/:harness/:id/messages?from=&limit= → { ok, supported, messages, next, total }
 *   POST /api/search { query, limit? } → { ok, results } — the REST twin of the MCP tool `search_sessions`
 *     (the pi/omp extension calls it): the tool's arguments as the body, its result (no mark ranges).
 * A query Muster cannot read is a 400 `invalid_query` saying what to fix.
 */
import { MusterError } from '../../errors/index.ts';
import type { Hub } from '../../hub/index.ts';
import { SEARCH_LIMIT_MAX, SEARCH_TOOL_DEFAULT_LIMIT, toolResults, type SearchService } from '../../search/index.ts';
import { harnessIn, optHarness, optInteger, queryInt, sessionIdIn } from '../input.ts';
import { readJsonObject } from '../body.ts';
import type { App } from '../env.ts';

/** Most messages one page returns. Default limit: 50. */
export const MESSAGES_MAX = 500;

export interface SearchRouteOptions {
  search: SearchService;
  hub: Pick<Hub, 'ready'>;
}

export function searchRoutes(opts: SearchRouteOptions) {
  return (app: App) => {
    app.get('/api/search', async (c) => {
      const q = c.req.query('q');
      if (q === undefined) throw new MusterError('invalid_query', 'send the query as ?q=<words, "phrases", prefix*, harness:/repo:/branch:/role:/since:/until:>');
      const harness = optHarness(c.req.query('harness'), 'invalid_argument');
      const limit = queryInt(c.req.query('limit'), 'limit', 1, SEARCH_LIMIT_MAX);
      // The first scan fills the index; a search before it would miss what it is about to find.
      await opts.hub.ready();
      return c.json({ ok: true, ...(await opts.search.search({ q, ...(harness ? { harness } : {}), ...(limit ? { limit } : {}) })) });
    });
    app.post('/api/search', async (c) => {
      const body = await readJsonObject(c);
      if (typeof body.query !== 'string') throw new MusterError('invalid_body', 'send { "query": "<search query>", "limit"?: N }');
      const limit = optInteger(body.limit, 'limit', 1);
      if (limit !== undefined && limit > SEARCH_LIMIT_MAX) throw new MusterError('invalid_body', `limit is at most ${SEARCH_LIMIT_MAX}`);
      await opts.hub.ready();
      const { results } = await opts.search.search({ q: body.query, limit: limit ?? SEARCH_TOOL_DEFAULT_LIMIT });
      return c.json({ ok: true, ...toolResults(results) });
    });
    app.get('/api/sessions/:harness/:id/messages', async (c) => {
      const harness = harnessIn(c.req.param('harness'), 'invalid_argument');
      const id = sessionIdIn(c.req.param('id'));
      const from = queryInt(c.req.query('from'), 'from', 0, Number.MAX_SAFE_INTEGER) ?? 0;
      const limit = queryInt(c.req.query('limit'), 'limit', 1, MESSAGES_MAX) ?? 50;
      const page = await opts.search.messages(harness, id, from, limit);
      if (page === 'unsupported') return c.json({ ok: true, supported: false, messages: [], next: null, total: 0 });
      if (page === null) throw new MusterError('session_not_found', `no ${harness} transcript for session ${id}`);
      return c.json({ ok: true, supported: true, ...page });
    });
  };
}
