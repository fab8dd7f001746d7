/** Sessions: GET /api/sessions (filters), GET /api/sessions/:id, GET /api/diagnostics. */
import { MusterError } from '../../errors/index.ts';
import type { Hub, IndexingStatus, SessionFilter } from '../../hub/index.ts';
import type { IndexingFigure } from '../../core/indexing.ts';
import { STATUSES, type Session } from '../../core/session.ts';
import { optAbsolutePath, optHarness, optOneOf, queryBoolean, sessionIdIn } from '../input.ts';
import type { App } from '../env.ts';

export function parseSessionFilter(q: Record<string, string | undefined>): SessionFilter {
  const f: SessionFilter = {};
  const live = queryBoolean(q.live, 'live');
  if (live !== undefined) f.live = live;
  const harness = optHarness(q.harness, 'invalid_argument');
  if (harness !== undefined) f.harness = harness;
  const status = optOneOf(q.status, STATUSES, 'status');
  if (status !== undefined) f.status = status;
  const cwd = optAbsolutePath(q.cwd, 'cwd', 'invalid_argument');
  if (cwd !== undefined) f.cwd = cwd;
  return f;
}

export interface SessionRouteOptions {
  hub: Hub;
  /** Fills in what the hub does not carry (the pane of a live session, from the pid → pane map). */
  decorate?: (session: Session) => Session;
}

/** The figure a listing carries: the totals, without each source's. */
export function indexingOf(s: IndexingStatus): IndexingFigure {
  return { active: s.active, done: s.done, total: s.total, bytesDone: s.bytesDone, bytesTotal: s.bytesTotal };
}

export function sessionRoutes(opts: SessionRouteOptions) {
  const decorate = opts.decorate ?? ((s: Session) => s);
  // The hub replaces a session object whenever anything about it changes (it never edits one in
  // place), so an object's JSON bytes can be kept beside it. Only dormant sessions are kept: they are
  // the bulk of a long history (serialising, joining and encoding 10,000 on every listing cost ~60 ms)
  // and decorate() leaves them as they are; a live one is serialised afresh (its pane comes from the map).
  const dormantJson = new WeakMap<Session, Buffer>();
  const toJson = (s: Session): Buffer => {
    if (s.live) return Buffer.from(JSON.stringify(decorate(s)));
    let j = dormantJson.get(s);
    if (j === undefined) dormantJson.set(s, (j = Buffer.from(JSON.stringify(decorate(s)))));
    return j;
  };
  const HEAD = Buffer.from('{"ok":true,"sessions":[');
  const COMMA = Buffer.from(',');
  /**
   * `{ ok: true, sessions, indexing }` as bytes, copied together once. `indexing` says whether a cold
   * index is still reading (then the list holds the sessions read so far).
   */
  const envelope = (parts: Buffer[]): Buffer => {
    const TAIL = Buffer.from(`],"indexing":${JSON.stringify(indexingOf(opts.hub.indexing()))}}`);
    const all: Buffer[] = [HEAD];
    for (const [i, p] of parts.entries()) {
      if (i > 0) all.push(COMMA);
      all.push(p);
    }
    all.push(TAIL);
    return Buffer.concat(all);
  };
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
      const body = envelope(opts.hub.list(parseSessionFilter(c.req.query())).map(toJson));
      // Buffer.concat never returns shared memory; the cast only narrows ArrayBufferLike for hono's type.
      return c.body(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), 200, { 'content-type': 'application/json' });
    });
    app.get('/api/sessions/:id', (c) => {
      const id = sessionIdIn(c.req.param('id'));
      const session = opts.hub.get(id);
      if (!session) throw new MusterError('session_not_found', `no session ${id}`);
      return c.json({ ok: true, session: decorate(session) });
    });
    app.get('/api/diagnostics', (c) => c.json({ ok: true, ...opts.hub.diagnostics() }));
  };
}
