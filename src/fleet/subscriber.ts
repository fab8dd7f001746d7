/**
 * Hearing the other hosts: one dedicated connection LISTENs on the fleet channel (every host's
 * changes and heartbeats) and on this host's own channel (commands for it, answers to its commands).
 * Nothing polls the tables: a notification says which host published up to which change, and only
 * then are that host's new changes read. The connection is reopened with backoff when it fails; after
 * each (re)connection, LISTEN comes first and a snapshot of every host second, so nothing published
 * in between is missed. A gap in a host's changes (pruned, or missed) loads that host whole.
 */
import { createBackoff, type Backoff } from './backoff.ts';
import { heardFromDatabase } from './liveness.ts';
import type { FleetDb, FleetDriver, ListenConnection } from './pg-port.ts';
import { FLEET_CHANNEL, type HostHello } from './publisher.ts';
import type { HostInfo, RemoteRecord, Replica } from './replica.ts';
import { isHostId, isHostName, RECORD_KINDS, type RecordKind } from './types.ts';

/** The channel of one host: commands for it, and answers to the commands it sent. */
export const hostChannel = (hostId: string): string => `muster_to_${hostId}`;

/** Changes read per statement while catching up with a host. */
const FETCH_PAGE = 1000;

export interface SubscriberOptions {
  driver: FleetDriver;
  url: string;
  selfId: string;
  db: FleetDb;
  replica: Replica;
  /** Connected and listening (before the snapshot): register, publish, claim commands. */
  onUp(): Promise<void>;
  /** The connection is gone (it will be reopened). */
  onDown(error: Error | null): void;
  /** A message on this host's own channel. Must not throw. */
  onDirect(payload: Record<string, unknown>): void;
  backoff?: Backoff;
  clock?: () => number;
  log?(line: string): void;
}

export interface Subscriber {
  start(): void;
  connected(): boolean;
  close(): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A fleet notification, checked (the database is the trust boundary, but a malformed row must not throw). */
export function parseHello(payload: string): HostHello | null {
  let v: unknown;
  try {
    v = JSON.parse(payload);
  } catch {
    return null;
  }
  if (!isObject(v) || !isHostId(v.h) || typeof v.s !== 'number' || !Number.isSafeInteger(v.s) || v.s < 0 || !isHostName(v.n) || typeof v.a !== 'boolean') return null;
  return { h: v.h, s: v.s, n: v.n, a: v.a, ...(v.left === true ? { left: true as const } : {}) };
}

interface HostRow { id: string; name: string; accept_commands: boolean; last_seq: string; seen_ms: number; now_ms: number }
interface RecordRow { host_id: string; kind: string; key: string; data: unknown }
interface ChangeRow { seq: string; kind: string; key: string; op: string; data: unknown }

const isKind = (k: string): k is RecordKind => (RECORD_KINDS as readonly string[]).includes(k);
const HOST_COLUMNS = 'id, name, accept_commands, last_seq, extract(epoch FROM last_seen_at) * 1000 AS seen_ms, extract(epoch FROM now()) * 1000 AS now_ms';

export function createSubscriber(opts: SubscriberOptions): Subscriber {
  const backoff = opts.backoff ?? createBackoff();
  const clock = opts.clock ?? Date.now;
  const log = opts.log ?? (() => {});
  const { db, replica } = opts;
  let conn: ListenConnection | null = null;
  let up = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Per host: the catch-up running now, and whether another is wanted behind it. */
  const catching = new Map<string, { running: Promise<void>; again: boolean }>();

  const toInfo = (r: HostRow): HostInfo => ({
    id: r.id, name: r.name, acceptCommands: r.accept_commands, lastSeq: Number(r.last_seq),
    lastHeardMs: heardFromDatabase(Number(r.seen_ms), Number(r.now_ms), clock()),
  });

  async function snapshotAll(): Promise<void> {
    const { hosts, records } = await db.transaction(async (q) => ({
      hosts: await q<HostRow>(`SELECT ${HOST_COLUMNS} FROM muster.hosts`),
      records: await q<RecordRow>('SELECT host_id, kind, key, data FROM muster.records WHERE host_id <> $1', [opts.selfId]),
    }), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    replica.loadAll(hosts.filter((h) => isHostId(h.id) && isHostName(h.name)).map(toInfo), records.filter((r) => isKind(r.kind)).map((r) => ({ hostId: r.host_id, kind: r.kind as RecordKind, key: r.key, data: r.data })));
  }

  async function loadHost(hostId: string): Promise<void> {
    const { hosts, records } = await db.transaction(async (q) => ({
      hosts: await q<HostRow>(`SELECT ${HOST_COLUMNS} FROM muster.hosts WHERE id = $1`, [hostId]),
      records: await q<RecordRow>('SELECT host_id, kind, key, data FROM muster.records WHERE host_id = $1', [hostId]),
    }), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const row = hosts[0];
    if (!row || !isHostName(row.name)) return replica.removeHost(hostId);
    replica.loadHost(toInfo(row), records.filter((r) => isKind(r.kind)).map((r) => ({ kind: r.kind as RecordKind, key: r.key, data: r.data })));
  }

  async function catchUp(hostId: string, mode: 'changes' | 'host'): Promise<void> {
    if (mode === 'host') return loadHost(hostId);
    for (;;) {
      const after = replica.host(hostId)?.lastSeq ?? 0;
      const rows = await db.query<ChangeRow>('SELECT seq, kind, key, op, data FROM muster.changes WHERE host_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [hostId, after, FETCH_PAGE]);
      const changes: RemoteRecord[] = rows.filter((r) => isKind(r.kind)).map((r) => ({ seq: Number(r.seq), kind: r.kind as RecordKind, key: r.key, op: r.op === 'delete' ? 'delete' : 'upsert', data: r.data }));
      if (!replica.applyChanges(hostId, changes)) return loadHost(hostId);
      if (rows.length < FETCH_PAGE) return;
    }
  }

  /** One catch-up per host at a time; requests meanwhile coalesce into one more run. */
  function want(hostId: string, mode: 'changes' | 'host'): void {
    const c = catching.get(hostId);
    if (c) {
      c.again = true;
      return;
    }
    const state = { running: Promise.resolve(), again: false };
    state.running = (async () => {
      let m = mode;
      do {
        state.again = false;
        try {
          await catchUp(hostId, m);
        } catch (e) {
          log(`[fleet] could not read the changes of host ${hostId}: ${(e as Error).message}`);
          return;
        }
        m = 'changes';
      } while (state.again && !closed);
    })().finally(() => catching.delete(hostId));
    catching.set(hostId, state);
  }

  function onNotify(channel: string, payload: string): void {
    if (channel !== FLEET_CHANNEL) {
      let v: unknown;
      try {
        v = JSON.parse(payload);
      } catch {
        return;
      }
      if (isObject(v)) opts.onDirect(v);
      return;
    }
    const hello = parseHello(payload);
    if (!hello || hello.h === opts.selfId) return;
    if (hello.left) return replica.removeHost(hello.h);
    const next = replica.heard(hello);
    if (next.fetch !== 'none') want(hello.h, next.fetch);
  }

  function schedule(): void {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, backoff.next());
    timer.unref?.();
  }

  async function connect(): Promise<void> {
    if (closed) return;
    try {
      conn = await opts.driver.listen(opts.url, [FLEET_CHANNEL, hostChannel(opts.selfId)], {
        notify: onNotify,
        down: (e) => {
          conn = null;
          if (!up || closed) return;
          up = false;
          opts.onDown(e);
          schedule();
        },
      });
      if (closed) {
        await conn.close();
        return;
      }
      up = true;
      await opts.onUp();
      await snapshotAll();
      backoff.reset();
    } catch (e) {
      const wasUp = up;
      up = false;
      const c = conn;
      conn = null;
      await c?.close().catch(() => {});
      if (wasUp || backoff.attempts() === 0) opts.onDown(e as Error);
      schedule();
    }
  }

  return {
    start: () => void connect(),
    connected: () => up,
    async close() {
      closed = true;
      up = false;
      clearTimeout(timer);
      await conn?.close();
      await Promise.allSettled([...catching.values()].map((c) => c.running));
    },
  };
}
