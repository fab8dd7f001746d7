/**
 * GET /api/sessions/:id/tail?limit=N — the last messages of a session's transcript, asked of the
 * session's own source. Sources without `tail` answer an empty list with `supported: false`.
 */
import { MusterError } from '../../errors/index.ts';
import type { Hub } from '../../hub/index.ts';
import { queryInt, sessionIdIn } from '../input.ts';
import type { App } from '../env.ts';

/** Most messages one call returns. Default limit: 30. */
export const TAIL_MAX = 200;

export function sessionTailRoutes(opts: { hub: Hub }) {
  return (app: App) => {
    app.get('/api/sessions/:id/tail', async (c) => {
      const id = sessionIdIn(c.req.param('id'));
      const limit = queryInt(c.req.query('limit'), 'limit', 1, TAIL_MAX) ?? 30;
      const session = opts.hub.get(id);
      if (!session) throw new MusterError('session_not_found', `no session ${id}`);
      const source = opts.hub.source(session.harness);
      if (!source?.tail) return c.json({ ok: true, supported: false, messages: [] });
      return c.json({ ok: true, supported: true, messages: await source.tail(id, limit) });
    });
  };
}
