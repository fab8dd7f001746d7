/**
 * Sessions: GET /api/sessions (filters, `host` in a fleet, and `waitIndexMs`: wait up to that long for a
 * running cold index to be over, so the listing is whole), GET /api/sessions/:id, GET /api/diagnostics.
 * In a fleet the listing holds every host's sessions, each with its `host`; this host's own come first
 * in the merge only where the order says so (one order for all: the hub's).
 */
import { MusterError } from '../../errors/index.ts';
import { compareSessions, sessionMatches, type Hub, type IndexingStatus, type SessionFilter } from '../../hub/index.ts';
import type { IndexingFigure } from '../../core/indexing.ts';
import { STATUSES, type Session } from '../../core/session.ts';
import { optAbsolutePath, optHarness, optOneOf, queryBoolean, queryHost, queryInt, sessionIdIn } from '../input.ts';
import type { FleetView } from '../fleet-routing.ts';
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
  /** Other hosts' sessions, in a fleet. */
  fleet?: FleetView;
  /**
   * The event bus's last id, sent with the listing as `eventId`: the listing reflects every event up to
   * it and none after, so a client that held the stream's events while it fetched applies only the later ones.
   */
  eventId?: () => number;
}

/** Longest a listing may wait for a running cold index (`waitIndexMs`), ms. */
export const MAX_INDEX_WAIT_MS = 60_000;

/** Resolves once the hub's cold indexes are over, or after `ms`. */
function indexedWithin(hub: Hub, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([hub.indexed(), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}

/** Two lists already in `compare` order, as one. */
function merge<T>(a: T[], b: T[], compare: (x: T, y: T) => number): T[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(compare(a[i] as T, b[j] as T) <= 0 ? (a[i++] as T) : (b[j++] as T));
  while (i < a.length) out.push(a[i++] as T);
  while (j < b.length) out.push(b[j++] as T);
  return out;
}

/** The figure a listing carries: the totals, without each source's. */
export function indexingOf(s: IndexingStatus): IndexingFigure {
  return { active: s.active, done: s.done, total: s.total, bytesDone: s.bytesDone, bytesTotal: s.bytesTotal };
}

export function sessionRoutes(opts: SessionRouteOptions) {
  const base = opts.decorate ?? ((s: Session) => s);
  const fleet = opts.fleet;
  /** This host's own sessions carry its name while it is in a fleet. */
  const decorate = (s: Session): Session => {
    const name = fleet?.localName();
    return name ? { ...base(s), host: name } : base(s);
  };
  // The hub (and the fleet's replica) replace a session object whenever anything about it changes
  // (never editing one in place), so an object's JSON bytes can be kept beside it. Only dormant local
  // sessions and other hosts' sessions are kept: they are the bulk of a long history (serialising,
  // joining and encoding 10,000 on every listing cost ~60 ms) and decorate() leaves them as they are;
  // a live local one is serialised afresh (its pane comes from the map). The cache is dropped when
  // this host's name changes (joining, leaving).
  let cache = new WeakMap<Session, Buffer>();
  let cachedFor: string | null = null;
  const toJson = (s: Session): Buffer => {
    if (s.hostId) {
      let j = cache.get(s);
      if (j === undefined) cache.set(s, (j = Buffer.from(JSON.stringify(s))));
      return j;
    }
    if (s.live) return Buffer.from(JSON.stringify(decorate(s)));
    const name = fleet?.localName() ?? null;
    if (name !== cachedFor) {
      cache = new WeakMap();
      cachedFor = name;
    }
    let j = cache.get(s);
    if (j === undefined) cache.set(s, (j = Buffer.from(JSON.stringify(decorate(s)))));
    return j;
  };
  const HEAD = Buffer.from('{"ok":true,"sessions":[');
  const COMMA = Buffer.from(',');
  /**
   * `{ ok: true, sessions, indexing, eventId }` as bytes, copied together once. `indexing` says whether a
   * cold index is still reading (then the list holds the sessions read so far). Built in the same turn as
   * the list, so `eventId` names the last event the list reflects.
   */
  const envelope = (parts: Buffer[]): Buffer => {
    const eventId = opts.eventId ? `,"eventId":${opts.eventId()}` : '';
    const TAIL = Buffer.from(`],"indexing":${JSON.stringify(indexingOf(opts.hub.indexing()))}${eventId}}`);
    const all: Buffer[] = [HEAD];
    for (const [i, p] of parts.entries()) {
      if (i > 0) all.push(COMMA);
      all.push(p);
    }
    all.push(TAIL);
    return Buffer.concat(all);
  };
  const list = (filter: SessionFilter, host: string | undefined): Session[] => {
    const name = fleet?.localName() ?? null;
    const local = host === undefined || (name !== null && host === name) ? opts.hub.list(filter) : [];
    if (!fleet || name === null) return local;
    const remote = fleet.sessions(compareSessions).filter((s) => (host === undefined || s.host === host) && sessionMatches(s, filter));
    return merge(local, remote, compareSessions);
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
    app.get('/api/sessions', async (c) => {
      const q = c.req.query();
      const filter = parseSessionFilter(q);
      const host = queryHost(q.host);
      // A client that wants the whole listing of a first start (`muster ls`) waits here, in one request.
      const waitMs = queryInt(q.waitIndexMs, 'waitIndexMs', 0, MAX_INDEX_WAIT_MS);
      if (waitMs) await indexedWithin(opts.hub, waitMs);
      const body = envelope(list(filter, host).map(toJson));
      // Buffer.concat never returns shared memory; the cast only narrows ArrayBufferLike for hono's type.
      return c.body(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), 200, { 'content-type': 'application/json' });
    });
    app.get('/api/sessions/:id', (c) => {
      const id = sessionIdIn(c.req.param('id'));
      const local = opts.hub.get(id);
      const session = local ? decorate(local) : fleet?.session(id);
      if (!session) throw new MusterError('session_not_found', `no session ${id}`);
      return c.json({ ok: true, session });
    });
    app.get('/api/diagnostics', (c) => c.json({ ok: true, ...opts.hub.diagnostics() }));
  };
}
