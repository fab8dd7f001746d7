/**
 * The hub merges every source into one session list and keeps it current:
 * - a source's watch() (inotify) triggers a debounced re-list of that source only;
 * - a slow safety rescan (settings.rescanSeconds, >= 30 s) re-lists everything;
 * - one liveness sweep (default every 500 ms) asks the OS port whether the pids of live sessions still
 *   exist — a SIGKILLed agent writes nothing, so no file event would ever tell. It is a handful of
 *   kill(pid, 0) calls, not a per-session poll of files.
 * Changes go out on the bus as session.upserted / session.removed / session.status.changed.
 */
import type { EventBus } from '../events/index.ts';
import type { SessionSource, SourceDiagnostics } from '../sources/contract.ts';
import type { Harness, Session, SessionStatus } from '../sources/session.ts';
import { diffSessions, sessionKey } from './diff.ts';
import type { HookStatusOverlay } from './hook-status.ts';

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
  /** Safety rescan interval, ms (read at each tick). Default: 60000. */
  rescanMs?: () => number;
  /** Liveness sweep interval, ms. Default: 500. */
  sweepMs?: number;
  /** Exact status from hook events, applied over every listing (hook-status.ts). Default: none. */
  overlay?: HookStatusOverlay;
  log?(line: string): void;
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
  counts(): Record<string, number>;
  close(): Promise<void>;
}

const STATUS_ORDER: Record<SessionStatus, number> = { waiting: 0, stuck: 1, working: 2, idle: 3, ended: 4 };

export function compareSessions(a: Session, b: Session): number {
  if (a.live !== b.live) return a.live ? -1 : 1;
  const s = STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
  if (s !== 0) return s;
  return (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? '');
}

export function createHub(opts: HubOptions): Hub {
  const log = opts.log ?? (() => {});
  const sessions = new Map<string, Session>();
  const byHarness = new Map<Harness, Map<string, Session>>();
  const stats = new Map<Harness, { listErrors: number; lastListMs: number | null }>();
  const running = new Map<Harness, Promise<void>>();
  const queued = new Set<Harness>();
  const timers = new Map<Harness, ReturnType<typeof setTimeout>>();
  const disposers: (() => void | Promise<void>)[] = [];
  /** Each source's last listing before the overlay, so a hook event re-applies without re-listing. */
  const raw = new Map<Harness, Session[]>();
  let closed = false;
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
    raw.set(src.harness, next);
    publishListing(src.harness, next);
  }

  /** Applies the overlay to a source's raw listing and publishes what changed. */
  function publishListing(harness: Harness, rawList: Session[]): void {
    const overlay = opts.overlay;
    const next = overlay ? rawList.map((s) => overlay.apply(s)) : rawList;
    const before = byHarness.get(harness) ?? new Map<string, Session>();
    const diff = diffSessions(before, next);
    const after = new Map<string, Session>();
    for (const s of next) after.set(sessionKey(s), s);
    byHarness.set(harness, after);
    for (const s of diff.removed) sessions.delete(sessionKey(s));
    for (const s of next) sessions.set(sessionKey(s), s);
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

  /** At most one list per source running and one queued (coalesced). */
  function refreshSource(src: SessionSource): Promise<void> {
    const current = running.get(src.harness);
    if (current) {
      queued.add(src.harness);
      return current;
    }
    const p = listSource(src).finally(() => {
      running.delete(src.harness);
      if (queued.delete(src.harness) && !closed) void refreshSource(src);
    });
    running.set(src.harness, p);
    return p;
  }

  function schedule(src: SessionSource): void {
    if (closed || timers.has(src.harness)) return;
    const t = setTimeout(() => {
      timers.delete(src.harness);
      void refreshSource(src);
    }, opts.debounceMs ?? 30);
    t.unref?.();
    timers.set(src.harness, t);
  }

  function sweep(): void {
    for (const src of opts.sources) {
      const mine = byHarness.get(src.harness);
      if (!mine) continue;
      for (const s of mine.values()) {
        if (s.live && (s.pids.length > 0 ? s.pids : s.pid ? [s.pid] : []).some((pid) => !opts.isAlive(pid))) {
          schedule(src);
          break;
        }
      }
    }
  }

  if (opts.overlay) {
    const off = opts.overlay.subscribe((h) => {
      const list = raw.get(h);
      if (list && !closed) publishListing(h, list);
    });
    disposers.push(off);
  }

  const hub: Hub = {
    ready: () => readyPromise,
    async start() {
      await Promise.all(opts.sources.map((s) => refreshSource(s)));
      markReady();
      for (const src of opts.sources) {
        try {
          disposers.push(src.watch(() => schedule(src)));
        } catch (e) {
          log(`[muster] ${src.harness} source cannot watch: ${(e as Error).message}`);
        }
      }
      const sweepTimer = setInterval(sweep, opts.sweepMs ?? 500);
      sweepTimer.unref?.();
      disposers.push(() => clearInterval(sweepTimer));
      let rescan: ReturnType<typeof setTimeout>;
      const tick = () => {
        rescan = setTimeout(() => {
          for (const s of opts.sources) void refreshSource(s);
          tick();
        }, Math.max(30_000, opts.rescanMs?.() ?? 60_000));
        rescan.unref?.();
      };
      tick();
      disposers.push(() => clearTimeout(rescan));
    },
    list(filter = {}) {
      const out: Session[] = [];
      for (const s of sessions.values()) {
        if (filter.live !== undefined && s.live !== filter.live) continue;
        if (filter.harness && s.harness !== filter.harness) continue;
        if (filter.status && s.status !== filter.status) continue;
        if (filter.cwd && !(s.cwd === filter.cwd || s.cwd?.startsWith(filter.cwd.endsWith('/') ? filter.cwd : `${filter.cwd}/`))) continue;
        out.push(s);
      }
      return out.sort(compareSessions);
    },
    get(id) {
      for (const s of sessions.values()) if (s.id === id) return s;
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
      for (const t of timers.values()) clearTimeout(t);
      for (const d of disposers.reverse()) {
        try {
          await d();
        } catch {}
      }
      await Promise.allSettled([...running.values()]);
    },
  };
  return hub;
}
