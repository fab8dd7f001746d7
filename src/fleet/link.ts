/**
 * One host's membership of a fleet, assembled: the capture (local changes → outbox), the publisher
 * (outbox → PostgreSQL), the subscriber (other hosts → replica → this host's bus), the commands
 * (steering across hosts) and the timers that tie them (heartbeat, liveness, pruning). `start` never
 * waits for the database: the daemon serves at once, and the fleet catches up when it can.
 */
import { MusterError } from '../errors/index.ts';
import type { MusterEvent, Publish } from '../events/index.ts';
import { createCapture, type CurrentRecords } from './capture.ts';
import { createCommands, type Commands } from './commands.ts';
import { createPgCommandQueue } from './command-queue.ts';
import { HEARTBEAT_MS, SILENCE_MS } from './liveness.ts';
import type { FleetDb, FleetDriver } from './pg-port.ts';
import { createPublisher, FLEET_CHANNEL, type HostHello } from './publisher.ts';
import { createReplica, type Replica } from './replica.ts';
import { migrateFleetSchema } from './schema.ts';
import { createSubscriber, type Subscriber } from './subscriber.ts';
import type { CommandAnswer, CommandKind, FleetHost, OutboxRepository } from './types.ts';
import { redactFleetUrl, scrubSecret } from './url.ts';

/** How long a change stays in `changes` once published, and how often a host prunes its own. */
const KEEP_CHANGES = '24 hours';
const PRUNE_MS = 3_600_000;

export interface FleetLinkOptions {
  url: string;
  name: string;
  hostId: string;
  /** This build (shown to other hosts). */
  version: string;
  driver: FleetDriver;
  outbox: OutboxRepository;
  /** The bus: every local event (captured), and where other hosts' changes are announced. */
  subscribe(listener: (e: MusterEvent) => void): () => void;
  publish: Publish;
  /** Everything this host has now (reconciled with the outbox at start). */
  current(): Promise<CurrentRecords>;
  /** Runs another host's command here, as a local request. */
  execute(kind: CommandKind, args: Record<string, unknown>, fromHost: string): Promise<CommandAnswer>;
  acceptCommands(): Promise<boolean>;
  log?(line: string): void;
  clock?: () => number;
  /** Heartbeat interval, ms. Default: 10 s. */
  heartbeatMs?: number;
  /** Silence after which a host is unreachable, ms. Default: 30 s. */
  silenceMs?: number;
}

export interface FleetStatus {
  joined: true;
  connected: boolean;
  host: { id: string; name: string };
  /** The database URL with its password replaced by `***`. */
  url: string;
  lastError: string | null;
  outbox: { queued: number; oldestAt: string | null; lastSeq: number; publishedSeq: number };
  hosts: FleetHost[];
}

export interface FleetLink {
  readonly replica: Replica;
  start(): void;
  /** Resolves at the first connection; rejects with `fleet_unreachable` (or `fleet_schema`) if the first attempt fails. */
  firstConnection(): Promise<void>;
  status(): FleetStatus;
  /** Runs a command on another host (its answer, or `host_unreachable` / `host_read_only` / `fleet_command_timeout`). */
  send(hostId: string, kind: CommandKind, args: Record<string, unknown>): Promise<CommandAnswer>;
  /** The setting changed: tell the fleet now. */
  announce(): void;
  /** Publishes what waits (tests, benchmarks). */
  drain(): Promise<void>;
  /** Removes this host from the fleet's database (best effort, bounded); true when it was removed. */
  removeSelf(): Promise<boolean>;
  close(): Promise<void>;
}

export function createFleetLink(opts: FleetLinkOptions): FleetLink {
  const log = opts.log ?? (() => {});
  const clock = opts.clock ?? Date.now;
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  let db: FleetDb | null = null;
  let lastError: string | null = null;
  let accept = true;
  let closed = false;
  const timers: ReturnType<typeof setInterval>[] = [];
  const first = deferred();

  const scrub = (e: unknown): string => scrubSecret(e instanceof Error ? e.message : String(e), opts.url);
  const replica = createReplica({ selfId: opts.hostId, publish: opts.publish, clock, silenceMs: opts.silenceMs ?? SILENCE_MS });
  let subscriber: Subscriber | null = null;
  const connectedDb = (): FleetDb | null => (subscriber?.connected() ? db : null);
  const mustDb = (): FleetDb => {
    const d = connectedDb();
    if (!d) throw new MusterError('fleet_unreachable', 'the fleet database is not connected');
    return d;
  };
  const hello = () => ({ n: opts.name, a: accept });
  const helloJson = (extra: Partial<HostHello> = {}) => JSON.stringify({ h: opts.hostId, s: publisher.publishedSeq(), ...hello(), ...extra } satisfies HostHello);

  async function register(): Promise<void> {
    const d = db as FleetDb;
    accept = await opts.acceptCommands();
    const rows = await d.query<{ last_seq: string }>(
      `WITH h AS (
         INSERT INTO muster.hosts (id, name, accept_commands, version) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, accept_commands = excluded.accept_commands, version = excluded.version, last_seen_at = now()
         RETURNING last_seq
       ) SELECT last_seq FROM h`,
      [opts.hostId, opts.name, accept, opts.version],
    );
    publisher.setPublishedSeq(Number(rows[0]?.last_seq ?? 0));
    await d.query(`SELECT pg_notify('${FLEET_CHANNEL}', $1)`, [helloJson()]);
  }

  const publisher = createPublisher({
    outbox: opts.outbox, hostId: opts.hostId, db: connectedDb, hello, register, clock,
    onError: (e) => {
      lastError = scrub(e);
    },
  });
  const capture = createCapture({ outbox: opts.outbox, subscribe: opts.subscribe, queued: () => publisher.kick(), log });
  const commands: Commands = createCommands({ queue: createPgCommandQueue(mustDb), selfId: opts.hostId, execute: opts.execute, acceptCommands: opts.acceptCommands, log, clock });

  const statusEvent = () => opts.publish('fleet.status.changed', { joined: true, connected: subscriber?.connected() ?? false, name: opts.name, lastError });

  async function heartbeat(): Promise<void> {
    const d = connectedDb();
    if (!d || clock() - publisher.lastPublishAt() < heartbeatMs - 200) return;
    try {
      const rows = await d.query<{ n: number }>(
        `WITH h AS (UPDATE muster.hosts SET last_seen_at = now(), name = $2, accept_commands = $3 WHERE id = $1 RETURNING id)
         SELECT (SELECT count(*) FROM h)::int AS n, pg_notify('${FLEET_CHANNEL}', $4)`,
        [opts.hostId, opts.name, accept, helloJson()],
      );
      if (rows[0]?.n === 0) await register();
    } catch (e) {
      lastError = scrub(e);
    }
  }

  async function prune(): Promise<void> {
    const d = connectedDb();
    if (!d) return;
    try {
      await d.query(`DELETE FROM muster.changes WHERE host_id = $1 AND published_at < now() - interval '${KEEP_CHANGES}'`, [opts.hostId]);
      await d.query("DELETE FROM muster.commands WHERE (target_host = $1 OR from_host = $1) AND (done_at < now() - interval '1 hour' OR deadline < now() - interval '1 hour')", [opts.hostId]);
    } catch (e) {
      log(`[fleet] pruning failed: ${scrub(e)}`);
    }
  }

  const every = (ms: number, fn: () => void) => {
    const t = setInterval(fn, ms);
    t.unref?.();
    timers.push(t);
  };

  return {
    replica,
    start() {
      void (async () => {
        try {
          capture.reconcile(await opts.current());
        } catch (e) {
          log(`[fleet] could not compare this host's records with the outbox: ${(e as Error).message}`);
        }
        publisher.kick();
      })();
      void (async () => {
        try {
          db = await opts.driver.open(opts.url);
        } catch (e) {
          lastError = scrub(e);
          first.reject(new MusterError('fleet_unreachable', `cannot use the fleet database: ${lastError}`));
          return;
        }
        if (closed) return void db.close();
        subscriber = createSubscriber({
          driver: opts.driver, url: opts.url, selfId: opts.hostId, db, replica, log, clock,
          onUp: async () => {
            await migrateFleetSchema(db as FleetDb);
            await register();
            lastError = null;
            first.resolve();
            statusEvent();
            publisher.kick();
            commands.recheck();
            void commands.claimAll();
          },
          onDown: (e) => {
            if (e) lastError = scrub(e);
            first.reject(e instanceof MusterError ? e : new MusterError('fleet_unreachable', `cannot reach the fleet database: ${lastError ?? 'connection closed'}`));
            log(`[fleet] lost the fleet database (${lastError ?? 'connection closed'}); working alone, retrying`);
            statusEvent();
          },
          onDirect: (p) => commands.onDirect(p),
        });
        subscriber.start();
      })();
      every(heartbeatMs, () => void heartbeat());
      every(1000, () => void replica.tick());
      every(PRUNE_MS, () => void prune());
    },
    firstConnection: () => first.promise,
    status() {
      const o = opts.outbox.stats();
      const self: FleetHost = { id: opts.hostId, name: opts.name, reachable: subscriber?.connected() ?? false, acceptCommands: accept, lastSeenAt: null, sessions: opts.outbox.mirroredKeys('session').length, self: true };
      return {
        joined: true, connected: subscriber?.connected() ?? false, host: { id: opts.hostId, name: opts.name }, url: redactFleetUrl(opts.url), lastError,
        outbox: { ...o, publishedSeq: publisher.publishedSeq() }, hosts: [self, ...replica.hosts()],
      };
    },
    async send(hostId, kind, args) {
      const h = replica.host(hostId);
      if (!h) throw new MusterError('host_unreachable', 'that host is no longer in the fleet');
      if (!h.reachable) throw new MusterError('host_unreachable', `host "${h.name}" has not been heard from for ${Math.round((clock() - (h.lastHeardMs ?? 0)) / 1000)} s; its sessions cannot be steered until it is back`, { details: { host: h.name } });
      if (!h.acceptCommands) throw new MusterError('host_read_only', `host "${h.name}" does not take commands from other hosts (its fleetAcceptCommands is false); act on it there`, { details: { host: h.name } });
      if (!connectedDb()) throw new MusterError('fleet_unreachable', 'this host cannot reach the fleet database now, so it cannot steer other hosts');
      return commands.send({ id: h.id, name: h.name }, kind, args);
    },
    announce() {
      void (async () => {
        accept = await opts.acceptCommands();
        const d = connectedDb();
        if (d) await d.query(`SELECT pg_notify('${FLEET_CHANNEL}', $1)`, [helloJson()]).catch(() => {});
        if (d) await d.query('UPDATE muster.hosts SET accept_commands = $2 WHERE id = $1', [opts.hostId, accept]).catch(() => {});
      })();
    },
    drain: () => publisher.drain(),
    async removeSelf() {
      const d = connectedDb();
      if (!d) return false;
      try {
        await d.query(`WITH gone AS (DELETE FROM muster.hosts WHERE id = $1 RETURNING id) SELECT pg_notify('${FLEET_CHANNEL}', $2) FROM gone`, [opts.hostId, helloJson({ left: true })]);
        await d.query('DELETE FROM muster.commands WHERE target_host = $1', [opts.hostId]);
        return true;
      } catch (e) {
        log(`[fleet] could not remove this host from the fleet database: ${scrub(e)}`);
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) clearInterval(t);
      capture.close();
      commands.close();
      publisher.close();
      await subscriber?.close();
      await db?.close();
      first.reject(new MusterError('fleet_unreachable', 'the fleet link was closed'));
      replica.clear();
    },
  };
}

/** A promise settled once, from outside (later calls are ignored); its rejection is never unhandled. */
function deferred(): { promise: Promise<void>; resolve(): void; reject(e: Error): void } {
  let settled = false;
  let res!: () => void;
  let rej!: (e: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    res = resolve;
    rej = reject;
  });
  promise.catch(() => {});
  return {
    promise,
    resolve: () => !settled && ((settled = true), res()),
    reject: (e) => !settled && ((settled = true), rej(e)),
  };
}
