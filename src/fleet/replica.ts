/**
 * What this host knows of the other hosts: their sessions, pages and goals as they last published
 * them, and whether each is reachable. Fed by snapshots (after connecting) and by the changes each
 * notification points at; read by the HTTP routes (ls, show, pages, goals) and announced on this
 * host's bus as the same events local changes produce (`session.upserted`, `page.answered`, …) with
 * the owning host on every record, so the board, the TUI and any SSE client need nothing new. A host
 * that falls silent keeps its rows, marked `hostReachable: false`. No I/O here.
 */
import type { Publish } from '../events/index.ts';
import type { Session } from '../core/session.ts';
import type { Page } from '../pager/index.ts';
import type { Goal } from '../goals/index.ts';
import { isSessionId } from '../harnesses/registry.ts';
import { isPageId } from '../pager/index.ts';
import { isReachable, SILENCE_MS } from './liveness.ts';
import { sessionRecordKey } from './capture.ts';
import type { FleetHost, RecordKind } from './types.ts';

/** Above this many events from one snapshot or liveness flip, clients are told to refetch instead. */
export const RESYNC_LIMIT = 200;

/** One record as it comes out of the database. */
export interface RemoteRecord {
  kind: RecordKind;
  key: string;
  op: 'upsert' | 'delete';
  data: unknown;
  seq: number;
}

export interface HostInfo {
  id: string;
  name: string;
  acceptCommands: boolean;
  /** The last change number it published. */
  lastSeq: number;
  /** Epoch ms it was last heard from, on this host's clock (null: never). */
  lastHeardMs: number | null;
}

interface HostState extends HostInfo {
  shownReachable: boolean;
  sessions: Map<string, Session>;
  pages: Map<string, Page>;
  goals: Map<string, Goal>;
}

export interface ReplicaOptions {
  selfId: string;
  publish: Publish;
  clock?: () => number;
  silenceMs?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const PAGE_EVENT = { pending: 'page.opened', answered: 'page.answered', delivered: 'page.delivered', cancelled: 'page.cancelled', dismissed: 'page.dismissed', expired: 'page.expired' } as const;

export function createReplica(opts: ReplicaOptions) {
  const clock = opts.clock ?? Date.now;
  const silence = opts.silenceMs ?? SILENCE_MS;
  const hosts = new Map<string, HostState>();
  let sorted: Session[] | null = null;
  /** Events queued while applying; flushed as they are, or as one resync when too many. */
  let events: (() => void)[] = [];

  const emitHosts = () => opts.publish('fleet.hosts.changed', { hosts: list() });
  const flush = (): void => {
    const batch = events;
    events = [];
    if (batch.length > RESYNC_LIMIT) opts.publish('fleet.resync', { reason: `${batch.length} changes from other hosts` });
    else for (const e of batch) e();
  };

  const decorateSession = (h: HostState, s: Session): Session => ({ ...s, host: h.name, hostId: h.id, hostReachable: h.shownReachable, readOnly: !h.acceptCommands });
  const hostOf = <T extends object>(h: HostState, r: T): T => ({ ...r, host: h.name, hostId: h.id });

  function upsertSession(h: HostState, key: string, data: unknown): void {
    if (!isObject(data) || !isSessionId(data.id) || typeof data.harness !== 'string' || sessionRecordKey(data as unknown as Session) !== key) return;
    const s = decorateSession(h, data as unknown as Session);
    const prev = h.sessions.get(key);
    h.sessions.set(key, s);
    sorted = null;
    events.push(() => opts.publish('session.upserted', { session: s }));
    if (prev && (prev.status !== s.status || prev.waitingFor !== s.waitingFor || prev.live !== s.live)) {
      events.push(() => opts.publish('session.status.changed', { harness: s.harness, id: s.id, status: s.status, waitingFor: s.waitingFor, live: s.live, statusSince: s.statusSince, host: h.name, hostId: h.id, previous: { status: prev.status, waitingFor: prev.waitingFor, live: prev.live } }));
    }
  }
  function removeSession(h: HostState, key: string): void {
    const prev = h.sessions.get(key);
    if (!prev) return;
    h.sessions.delete(key);
    sorted = null;
    events.push(() => opts.publish('session.removed', { harness: prev.harness, id: prev.id, hostId: h.id }));
  }
  function upsertPage(h: HostState, key: string, data: unknown): void {
    if (!isObject(data) || !isPageId(data.id) || data.id !== key || typeof data.status !== 'string' || !Object.hasOwn(PAGE_EVENT, data.status)) return;
    const p = hostOf(h, data as unknown as Page);
    h.pages.set(key, p);
    events.push(() => opts.publish(PAGE_EVENT[p.status], p));
  }
  function upsertGoal(h: HostState, key: string, data: unknown): void {
    if (!isObject(data) || typeof data.id !== 'string' || data.sessionId !== key || !isSessionId(key)) return;
    const g = hostOf(h, data as unknown as Goal);
    h.goals.set(key, g);
    events.push(() => opts.publish('goal.updated', g));
  }
  function removeGoal(h: HostState, key: string): void {
    const prev = h.goals.get(key);
    if (!prev) return;
    h.goals.delete(key);
    events.push(() => opts.publish('goal.updated', { ...prev, cleared: true }));
  }

  function apply(h: HostState, r: Pick<RemoteRecord, 'kind' | 'key' | 'op' | 'data'>): void {
    if (r.kind === 'session') return r.op === 'delete' ? removeSession(h, r.key) : upsertSession(h, r.key, r.data);
    if (r.kind === 'page') {
      if (r.op === 'delete') h.pages.delete(r.key);
      else upsertPage(h, r.key, r.data);
      return;
    }
    if (r.kind === 'goal') return r.op === 'delete' ? removeGoal(h, r.key) : upsertGoal(h, r.key, r.data);
  }

  function ensureHost(info: Pick<HostInfo, 'id' | 'name' | 'acceptCommands'>): HostState {
    let h = hosts.get(info.id);
    if (!h) {
      h = { id: info.id, name: info.name, acceptCommands: info.acceptCommands, lastSeq: 0, lastHeardMs: null, shownReachable: true, sessions: new Map(), pages: new Map(), goals: new Map() };
      hosts.set(info.id, h);
    }
    return h;
  }

  /** Re-decorates every record of a host (its name, reachability or read-only state changed). */
  function redecorate(h: HostState): void {
    for (const [k, s] of h.sessions) upsertSession(h, k, s);
    for (const [k, p] of h.pages) upsertPage(h, k, p);
    for (const [k, g] of h.goals) upsertGoal(h, k, g);
  }

  /** Replaces one host's records with a snapshot of them. */
  function load(h: HostState, records: readonly Pick<RemoteRecord, 'kind' | 'key' | 'data'>[]): void {
    const seen = { session: new Set<string>(), page: new Set<string>(), goal: new Set<string>() };
    for (const r of records) {
      seen[r.kind]?.add(r.key);
      const prev = r.kind === 'session' ? h.sessions.get(r.key) : r.kind === 'page' ? h.pages.get(r.key) : h.goals.get(r.key);
      // Unchanged records stay as they are (and are not announced).
      if (prev && JSON.stringify(strip(prev)) === JSON.stringify(r.data)) continue;
      apply(h, { ...r, op: 'upsert' });
    }
    for (const k of [...h.sessions.keys()]) if (!seen.session.has(k)) removeSession(h, k);
    for (const k of [...h.pages.keys()]) if (!seen.page.has(k)) h.pages.delete(k);
    for (const k of [...h.goals.keys()]) if (!seen.goal.has(k)) removeGoal(h, k);
  }

  function list(): FleetHost[] {
    return [...hosts.values()].map((h) => ({
      id: h.id, name: h.name, reachable: h.shownReachable, acceptCommands: h.acceptCommands,
      lastSeenAt: h.lastHeardMs === null ? null : new Date(h.lastHeardMs).toISOString(), sessions: h.sessions.size, self: false,
    }));
  }

  return {
    /**
     * A notification from a host (change, heartbeat, join). Returns what to fetch: `changes` after
     * `lastSeq` when it published more than this host has, `host` when the host is new here.
     */
    heard(hello: { h: string; s: number; n: string; a: boolean }): { fetch: 'none' | 'changes' | 'host'; after: number } {
      if (hello.h === opts.selfId) return { fetch: 'none', after: 0 };
      const known = hosts.get(hello.h);
      const h = ensureHost({ id: hello.h, name: hello.n, acceptCommands: hello.a });
      h.lastHeardMs = clock();
      const renamed = known !== undefined && (known.name !== hello.n || known.acceptCommands !== hello.a);
      h.name = hello.n;
      h.acceptCommands = hello.a;
      const wasShown = h.shownReachable;
      h.shownReachable = true;
      if (renamed || !wasShown) redecorate(h);
      flush();
      if (!known || renamed || !wasShown) emitHosts();
      if (!known) return { fetch: 'host', after: 0 };
      return hello.s > h.lastSeq ? { fetch: 'changes', after: h.lastSeq } : { fetch: 'none', after: h.lastSeq };
    },
    /** Changes of one host after what this host has, in order; returns false when there is a gap (load the host instead). */
    applyChanges(hostId: string, changes: readonly RemoteRecord[]): boolean {
      const h = hosts.get(hostId);
      if (!h) return false;
      for (const c of changes) {
        if (c.seq <= h.lastSeq) continue;
        if (c.seq !== h.lastSeq + 1) {
          flush();
          return false;
        }
        apply(h, c);
        h.lastSeq = c.seq;
      }
      flush();
      return true;
    },
    /** One host's whole state (a snapshot read in one transaction with its `last_seq`). */
    loadHost(info: HostInfo, records: readonly Pick<RemoteRecord, 'kind' | 'key' | 'data'>[]): void {
      if (info.id === opts.selfId) return;
      const h = ensureHost(info);
      const changedLook = h.name !== info.name || h.acceptCommands !== info.acceptCommands || h.shownReachable !== isReachable(info.lastHeardMs, clock(), silence);
      Object.assign(h, { name: info.name, acceptCommands: info.acceptCommands, lastSeq: info.lastSeq, lastHeardMs: info.lastHeardMs, shownReachable: isReachable(info.lastHeardMs, clock(), silence) });
      if (changedLook) redecorate(h);
      load(h, records);
      flush();
      emitHosts();
    },
    /** Every host's state at once (after connecting); hosts absent from it have left. */
    loadAll(infos: readonly HostInfo[], records: readonly (Pick<RemoteRecord, 'kind' | 'key' | 'data'> & { hostId: string })[]): void {
      const byHost = new Map<string, (typeof records)[number][]>();
      for (const r of records) byHost.set(r.hostId, [...(byHost.get(r.hostId) ?? []), r]);
      const present = new Set(infos.map((i) => i.id));
      for (const id of [...hosts.keys()]) if (!present.has(id)) dropHost(id);
      for (const info of infos) {
        if (info.id === opts.selfId) continue;
        const h = ensureHost(info);
        const reachable = isReachable(info.lastHeardMs, clock(), silence);
        const changedLook = h.name !== info.name || h.acceptCommands !== info.acceptCommands || h.shownReachable !== reachable;
        Object.assign(h, { name: info.name, acceptCommands: info.acceptCommands, lastSeq: info.lastSeq, lastHeardMs: info.lastHeardMs, shownReachable: reachable });
        if (changedLook) redecorate(h);
        load(h, byHost.get(info.id) ?? []);
      }
      flush();
      emitHosts();
    },
    /** A host left the fleet: its records go. */
    removeHost(id: string): void {
      dropHost(id);
      flush();
      emitHosts();
    },
    /** Marks hosts silent for too long unreachable (and heard ones reachable again); returns how many flipped. */
    tick(): number {
      let n = 0;
      for (const h of hosts.values()) {
        const r = isReachable(h.lastHeardMs, clock(), silence);
        if (r === h.shownReachable) continue;
        h.shownReachable = r;
        redecorate(h);
        n++;
      }
      if (n > 0) {
        flush();
        emitHosts();
      }
      return n;
    },
    hosts: list,
    host: (id: string): HostInfo & { reachable: boolean } | undefined => {
      const h = hosts.get(id);
      return h ? { id: h.id, name: h.name, acceptCommands: h.acceptCommands, lastSeq: h.lastSeq, lastHeardMs: h.lastHeardMs, reachable: h.shownReachable } : undefined;
    },
    /** Every remote session, in the hub's order (cached until something changes). */
    sessions(compare: (a: Session, b: Session) => number): Session[] {
      if (!sorted) sorted = [...hosts.values()].flatMap((h) => [...h.sessions.values()]).sort(compare);
      return sorted;
    },
    session(id: string): Session | undefined {
      for (const h of hosts.values()) for (const s of h.sessions.values()) if (s.id === id) return s;
      return undefined;
    },
    pages: (): Page[] => [...hosts.values()].flatMap((h) => [...h.pages.values()]),
    page: (id: string): Page | undefined => [...hosts.values()].find((h) => h.pages.has(id))?.pages.get(id),
    goals: (): Goal[] => [...hosts.values()].flatMap((h) => [...h.goals.values()]),
    goal: (ref: string): Goal | undefined => {
      for (const h of hosts.values()) {
        const g = h.goals.get(ref) ?? [...h.goals.values()].find((x) => x.id === ref);
        if (g) return g;
      }
      return undefined;
    },
    clear(): void {
      for (const id of [...hosts.keys()]) dropHost(id);
      flush();
      emitHosts();
    },
  };

  function dropHost(id: string): void {
    const h = hosts.get(id);
    if (!h) return;
    for (const k of [...h.sessions.keys()]) removeSession(h, k);
    for (const k of [...h.goals.keys()]) removeGoal(h, k);
    hosts.delete(id);
    sorted = null;
  }
}

/** A record without the fields this host adds, to compare with what the database holds. */
function strip<T extends object>(r: T): T {
  const { host: _h, hostId: _i, hostReachable: _r, readOnly: _o, ...rest } = r as T & Record<'host' | 'hostId' | 'hostReachable' | 'readOnly', unknown>;
  return rest as T;
}

export type Replica = ReturnType<typeof createReplica>;
