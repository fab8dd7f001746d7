/** Sessions: GET /api/sessions (filters), GET /api/sessions/:id, GET /api/diagnostics. */
import { MusterError } from '../../errors/index.ts';
import type { Hub, SessionFilter } from '../../hub/index.ts';
import { isSessionId } from '../../sources/ids.ts';
import { HARNESSES, STATUSES, type Harness, type Session, type SessionStatus } from '../../sources/session.ts';
import type { App } from '../env.ts';

export function parseSessionFilter(q: Record<string, string | undefined>): SessionFilter {
  const f: SessionFilter = {};
  if (q.live !== undefined) {
    if (!['true', 'false', '1', '0'].includes(q.live)) throw new MusterError('invalid_argument', 'live must be true or false');
    f.live = q.live === 'true' || q.live === '1';
  }
  if (q.harness !== undefined) {
    if (!(HARNESSES as readonly string[]).includes(q.harness)) throw new MusterError('invalid_argument', `harness must be one of ${HARNESSES.join(', ')}`);
    f.harness = q.harness as Harness;
  }
  if (q.status !== undefined) {
    if (!(STATUSES as readonly string[]).includes(q.status)) throw new MusterError('invalid_argument', `status must be one of ${STATUSES.join(', ')}`);
    f.status = q.status as SessionStatus;
  }
  if (q.cwd !== undefined) {
    if (!q.cwd.startsWith('/') || q.cwd.length > 4096) throw new MusterError('invalid_argument', 'cwd must be an absolute path');
    f.cwd = q.cwd;
  }
  return f;
}

export interface SessionRouteOptions {
  hub: Hub;
  /** Fills in what the hub does not carry (the pane of a live session, from the pid → pane map). */
  decorate?: (session: Session) => Session;
}

export function sessionRoutes(opts: SessionRouteOptions) {
  const decorate = opts.decorate ?? ((s: Session) => s);
  return (app: App) => {
    app.use('/api/sessions/*', async (_c, next) => {
      await opts.hub.ready();
      await next();
    });
    app.use('/api/sessions', async (_c, next) => {
      await opts.hub.ready();
      await next();
    });
    app.get('/api/sessions', (c) => {
      const sessions = opts.hub.list(parseSessionFilter(c.req.query())).map(decorate);
      return c.json({ ok: true, sessions });
    });
    app.get('/api/sessions/:id', (c) => {
      const id = c.req.param('id');
      if (!isSessionId(id)) throw new MusterError('invalid_id', 'not a session id (a UUID, or ses_ followed by 26 letters and digits)');
      const session = opts.hub.get(id);
      if (!session) throw new MusterError('session_not_found', `no session ${id}`);
      return c.json({ ok: true, session: decorate(session) });
    });
    app.get('/api/diagnostics', (c) => c.json({ ok: true, ...opts.hub.diagnostics() }));
  };
}
