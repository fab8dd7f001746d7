/**
 * The hub merges every source into one session list and keeps it current:
 * - a source's watch() (inotify) triggers a debounced re-list of that source only;
 * - a slow safety rescan (settings.rescanSeconds, >= 30 s; up to 8× that while nothing happens) re-lists everything;
 * - one liveness sweep (every 500 ms while things happen; 1 s once nothing has for 15 s, 2 s after a minute and from the start: sweep-timer.ts) asks whether the pids of live sessions still
 *   exist — a SIGKILLed agent writes nothing, so no file event would ever tell. It is a handful of
 *   kill(pid, 0) calls (the probe, discovery/proc/liveness.ts), not a per-session poll of files.
 * Changes go out on the bus as session.upserted / session.removed / session.status.changed.
 */
import type { EventBus } from '../events/index.ts';
import type { SessionSource, SourceDiagnostics } from '../discovery/contract.ts';
import type { Harness, Session, SessionStatus } from '../core/session.ts';
import { diffSessions, holdsExactly, sessionKey } from './diff.ts';
import type { HookStatusOverlay } from './hook-status.ts';
import { createIndexingTracker } from './indexing.ts';
import { startRescanTimer } from './rescan.ts';
import type { RescanTimer } from './rescan.ts';
import { startSweepTimer } from './sweep-timer.ts';
import type { SweepTimer } from './sweep-timer.ts';
import type { IndexingStatus } from './indexing.ts';

export interface SessionFilter {
  live?: boolean;
  harness?: Harness;
  status?: SessionStatus;
  /** Sessions whose cwd is this directory or below it. */
  cwd?: string;
}

export interface HubOptions {
  sources: SessionSource[];
  bus: EventBus;
  /** Is this pid still running? (real default lives in the composition root: kill(pid, 0)). */
  isAlive(pid: number): boolean;
  /** Debounce of source change notifications, ms. Default: 30. */
  debounceMs?: number;
  /** Safety rescan interval, ms (read at each tick; up to 8× that while nothing happens: rescan.ts). Default: 60000. */
  rescanMs?: () => number;
  /** Liveness sweep interval while things happen, ms. Default: 500. */
  sweepMs?: number;
  /** Liveness sweep interval after 15 s without activity, ms (sweep-timer.ts). Default: 1000. */
  quietSweepMs?: number;
  /** Liveness sweep interval after a minute without activity, ms (sweep-timer.ts). Default: 2000. */
  stillSweepMs?: number;
  /** Exact status from hook events, applied over every listing (hook-status.ts). Default: none. */
  overlay?: HookStatusOverlay;
  log?(line: string): void;
  /** Default: Date.now. */
  clock?: () => number;
}

export interface HubDiagnostics {
  sources: (SourceDiagnostics & { listErrors: number; lastListMs: number | null })[];
  sessions: number;
  live: number;
}

export interface Hub {
  /** First full listing, then watchers and timers. */
  start(): Promise<void>;
  /** Resolves once the first full listing is done (readers wait on it instead of seeing a partial list). */
  ready(): Promise<void>;
  list(filter?: SessionFilter): Session[];
  get(id: string): Session | undefined;
  source(harness: Harness): SessionSource | undefined;
  /** Re-lists one source (or all) now. */
  refresh(harness?: Harness): Promise<void>;
  diagnostics(): HubDiagnostics;
  /** The cold indexes' progress (a first start reading a long history in the background). */
  indexing(): IndexingStatus;
  /** Resolves once no cold index runs and the listing holds every indexed session (at once when none runs). */
  indexed(): Promise<void>;
  counts(): Record<string, number>;
  close(): Promise<void>;
}

const STATUS_ORDER: Record<SessionStatus, number> = { waiting: 0, stuck: 1, working: 2, idle: 3, ended: 4 };

export function compareSessions(a: Session, b: Session): number {
  if (a.live !== b.live) return a.live ? -1 : 1;
  const s = STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
  if (s !== 0) return s;
  // ISO timestamps order as plain strings; localeCompare (ICU) costs several times more on 10,000 sessions.
  const x = a.lastActivityAt ?? '';
  const y = b.lastActivityAt ?? '';
  return x < y ? 1 : x > y ? -1 : 0;
}

/** True when `s` passes `filter` (the hub's listing and the fleet's other hosts share it). */
export function sessionMatches(s: Session, filter: SessionFilter): boolean {
  if (filter.live !== undefined && s.live !== filter.live) return false;
  if (filter.harness && s.harness !== filter.harness) return false;
  if (filter.status && s.status !== filter.status) return false;
  if (filter.cwd && !(s.cwd === filter.cwd || s.cwd?.startsWith(filter.cwd.endsWith('/') ? filter.cwd : `${filter.cwd}/`))) return false;
  return true;
}

export function createHub(opts: HubOptions): Hub {
  const log = opts.log ?? (() => {});
  const sessions = new Map<string, Session>();
  const byHarness = new Map<Harness, Map<string, Session>>();
  const liveByHarness = new Map<Harness, Session[]>();
  const stats = new Map<Harness, { listErrors: number; lastListMs: number | null }>();
  const timers = new Map<Harness, ReturnType<typeof setTimeout>>();
  const disposers: (() => void | Promise<void>)[] = [];
  /** Each source's last listing before the overlay, by key, so a hook event re-applies without re-listing. */
  const raw = new Map<Harness, Map<string, Session>>();
  /** Per source: the refresh running now and what is queued behind it (coalesced: one running, one queued). */
  const work = new Map<Harness, { running: Promise<void> | null; full: boolean; ids: Set<string> }>();
  const pendingIds = new Map<Harness, Set<string> | null>();
  let closed = false;
  /** Started after the first listing; told of every watch event, sweep find and published change. */
  let rescanTimer: RescanTimer | null = null;
  let sweepTimer: SweepTimer | null = null;
  const noteActivity = (): void => {
    rescanTimer?.activity();
    sweepTimer?.activity();
  };
  const indexing = createIndexingTracker({
    publish: (status) => opts.bus.publish('index.progress.changed', status),
    relist: (h) => {
      const src = opts.sources.find((s) => s.harness === h);
      if (src) schedule(src);
    },
    lastListMs: (h) => stats.get(h)?.lastListMs ?? null,
  });
  let markReady!: () => void;
  const readyPromise = new Promise<void>((r) => (markReady = r));

  async function listSource(src: SessionSource): Promise<void> {
    const st = stats.get(src.harness) ?? { listErrors: 0, lastListMs: null };
    stats.set(src.harness, st);
    const t0 = performance.now();
    let next: Session[];
    try {
      next = await src.list();
    } catch (e) {
      st.listErrors++;
      log(`[muster] ${src.harness} source failed to list: ${(e as Error).message}`);
      return;
    }
    st.lastListMs = Math.round(performance.now() - t0);
    if (closed) return;
    // A safety rescan of a long history mostly gets back the very sessions the hub holds (sources hand
    // out an unchanged session again): nothing to apply or diff.
    const held = raw.get(src.harness);
    if (held && holdsExactly(held, next)) return;
    raw.set(src.harness, new Map(next.map((s) => [sessionKey(s), s])));
    publishListing(src.harness);
  }

  /** Re-reads only the sessions a watch event named: an append costs one file, not a re-list of thousands. */
  async function getIds(src: SessionSource, ids: string[]): Promise<void> {
    const mine = raw.get(src.harness) ?? new Map<string, Session>();
    raw.set(src.harness, mine);
    const keys: string[] = [];
    for (const id of ids) {
      const key = sessionKey({ harness: src.harness, id });
      keys.push(key);
      try {
        const s = await src.get(id);
        if (s) mine.set(key, s);
        else mine.delete(key);
      } catch (e) {
        log(`[muster] ${src.harness} source failed to read ${id}: ${(e as Error).message}`);
      }
    }
    if (!closed) publishListing(src.harness, keys);
  }

  /**
   * Applies the overlay to a source's raw sessions and publishes what changed: all of them, or only
   * `keys` when a targeted read changed just those.
   */
  function publishListing(harness: Harness, keys?: string[]): void {
    const overlay = opts.overlay;
    const rawMap = raw.get(harness) ?? new Map<string, Session>();
    const before = byHarness.get(harness) ?? new Map<string, Session>();
    const scopeBefore = keys ? new Map(keys.flatMap((k) => (before.has(k) ? [[k, before.get(k) as Session] as const] : []))) : before;
    const rawNext = keys ? keys.flatMap((k) => (rawMap.has(k) ? [rawMap.get(k) as Session] : [])) : [...rawMap.values()];
    const next = overlay ? rawNext.map((s) => overlay.apply(s)) : rawNext;
    const diff = diffSessions(scopeBefore, next);
    const after = keys ? before : new Map<string, Session>();
    for (const s of diff.removed) {
      after.delete(sessionKey(s));
      sessions.delete(sessionKey(s));
    }
    for (const s of next) {
      after.set(sessionKey(s), s);
      sessions.set(sessionKey(s), s);
    }
    byHarness.set(harness, after);
    // What the liveness sweep looks at: the live ones only, not a long history of dormant ones.
    const live: Session[] = [];
    for (const s of after.values()) if (s.live) live.push(s);
    liveByHarness.set(harness, live);
    if (diff.upserted.length + diff.removed.length + diff.statusChanged.length > 0) noteActivity();
    for (const s of diff.upserted) opts.bus.publish('session.upserted', { session: s });
    for (const s of diff.removed) opts.bus.publish('session.removed', { harness: s.harness, id: s.id });
    for (const c of diff.statusChanged) {
      opts.bus.publish('session.status.changed', {
        harness: c.session.harness,
        id: c.session.id,
        status: c.session.status,
        waitingFor: c.session.waitingFor,
        live: c.session.live,
        statusSince: c.session.statusSince,
        previous: c.previous,
      });
    }
  }

  /** Queues a refresh of `src` (`ids` null = everything) behind the one running, merging requests. */
  function refreshSource(src: SessionSource, ids: string[] | null = null): Promise<void> {
    let w = work.get(src.harness);
    if (!w) {
      w = { running: null, full: false, ids: new Set() };
      work.set(src.harness, w);
    }
    if (ids === null) w.full = true;
    else for (const id of ids) w.ids.add(id);
    if (w.running) return w.running;
    const state = w;
    state.running = (async () => {
      while (!closed && (state.full || state.ids.size > 0)) {
        const full = state.full;
        const only = [...state.ids];
        state.full = false;
        state.ids.clear();
        if (full) await listSource(src);
        else await getIds(src, only);
      }
      state.running = null;
    })();
    return state.running;
  }

  /** Debounced: ids from watch events accumulate; an event without ids (or a sweep) asks for a full re-list. */
  function schedule(src: SessionSource, ids: string[] = []): void {
    if (closed) return;
    noteActivity();
    const acc = pendingIds.get(src.harness);
    if (ids.length === 0) pendingIds.set(src.harness, null);
    else if (acc !== null) pendingIds.set(src.harness, new Set([...(acc ?? []), ...ids]));
    if (timers.has(src.harness)) return;
    const t = setTimeout(() => {
      timers.delete(src.harness);
      const acc2 = pendingIds.get(src.harness);
      pendingIds.delete(src.harness);
      void refreshSource(src, acc2 ? [...acc2] : null);
    }, opts.debounceMs ?? 30);
    t.unref?.();
    timers.set(src.harness, t);
  }

  /** True when a process the session is live in is gone. Allocates nothing: it runs up to twice a second. */
  function lostProcess(s: Session): boolean {
    if (s.pids.length === 0) return s.pid ? !opts.isAlive(s.pid) : false;
    for (const pid of s.pids) if (!opts.isAlive(pid)) return true;
    return false;
  }

  function sweep(): void {
    for (const src of opts.sources) {
      for (const s of liveByHarness.get(src.harness) ?? []) {
        if (lostProcess(s)) {
          schedule(src);
          break;
        }
      }
    }
  }

  /** Starts a source's cold index; never throws (a source that fails to plan one lists as before). */
  function startColdIndex(src: SessionSource): Promise<void> | null {
    try {
      return src.coldIndex?.((p) => indexing.progress(p)) ?? null;
    } catch (e) {
      log(`[muster] ${src.harness} source could not start its cold index: ${(e as Error).message}`);
      return null;
    }
  }

  if (opts.overlay) {
    const off = opts.overlay.subscribe((h) => {
      if (raw.has(h) && !closed) publishListing(h);
    });
    disposers.push(off);
  }

  const hub: Hub = {
    ready: () => readyPromise,
    async start() {
      // A first start on a long history: sources read their unread transcripts in worker threads while
      // the first listing (everything already indexed, and every live session) is served at once.
      for (const src of opts.sources) {
        const run = startColdIndex(src);
        // Still "indexing" until the listing with the last batch is out: a client that waits for the
        // end and then lists sees every session.
        if (run) void run.then(() => refreshSource(src)).then(() => indexing.finished(src.harness));
      }
      await Promise.all(opts.sources.map((s) => refreshSource(s)));
      markReady();
      for (const src of opts.sources) {
        try {
          disposers.push(src.watch((change) => schedule(src, change.ids)));
        } catch (e) {
          log(`[muster] ${src.harness} source cannot watch: ${(e as Error).message}`);
        }
      }
      sweepTimer = startSweepTimer({ sweep, activeMs: opts.sweepMs, quietMs: opts.quietSweepMs, stillMs: opts.stillSweepMs, clock: opts.clock });
      disposers.push(() => sweepTimer?.close());
      rescanTimer = startRescanTimer({
        baseMs: () => Math.max(30_000, opts.rescanMs?.() ?? 60_000),
        rescan: () => { for (const s of opts.sources) void refreshSource(s); },
        clock: opts.clock,
      });
      disposers.push(() => rescanTimer?.close());
    },
    list(filter = {}) {
      const out: Session[] = [];
      for (const s of sessions.values()) if (sessionMatches(s, filter)) out.push(s);
      return out.sort(compareSessions);
    },
    get(id) {
      // Sessions are keyed by harness and id: a bare id is a lookup per harness (five), not a scan.
      for (const src of opts.sources) {
        const s = sessions.get(sessionKey({ harness: src.harness, id }));
        if (s) return s;
      }
      return undefined;
    },
    source: (h) => opts.sources.find((s) => s.harness === h),
    async refresh(harness) {
      await Promise.all(opts.sources.filter((s) => !harness || s.harness === harness).map((s) => refreshSource(s)));
    },
    diagnostics() {
      let live = 0;
      for (const s of sessions.values()) if (s.live) live++;
      return {
        sources: opts.sources.map((s) => ({ ...s.diagnostics(), listErrors: stats.get(s.harness)?.listErrors ?? 0, lastListMs: stats.get(s.harness)?.lastListMs ?? null })),
        sessions: sessions.size,
        live,
      };
    },
    indexing: () => indexing.status(),
    indexed: () => indexing.idle(),
    counts() {
      const c: Record<string, number> = { sessions: sessions.size, live: 0, waiting: 0, working: 0 };
      for (const s of sessions.values()) {
        if (s.live) c.live = (c.live ?? 0) + 1;
        if (s.status === 'waiting') c.waiting = (c.waiting ?? 0) + 1;
        if (s.status === 'working') c.working = (c.working ?? 0) + 1;
      }
      return c;
    },
    async close() {
      if (closed) return;
      closed = true;
      indexing.close();
      for (const t of timers.values()) clearTimeout(t);
      for (const d of disposers.reverse()) {
        try {
          await d();
        } catch {}
      }
      await Promise.allSettled([...work.values()].map((w) => w.running));
    },
  };
  return hub;
}
