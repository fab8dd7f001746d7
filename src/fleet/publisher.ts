/**
 * Publishes the outbox to PostgreSQL, oldest first, in batches, and removes a batch only once the
 * database has committed it. A batch is one statement (so one transaction): its changes are appended
 * to `changes` (a change already there — its acknowledgement was lost — is skipped, so none is ever
 * stored twice), the records they leave are written to `records` (only over an older change of the
 * same record), the host's `last_seq` and `last_seen_at` move on, and one NOTIFY tells every other
 * host. A failure leaves the batch queued and retries with backoff; the host works on meanwhile.
 */
import { createBackoff, type Backoff } from './backoff.ts';
import type { FleetDb } from './pg-port.ts';
import type { OutboxEntry, OutboxRepository } from './types.ts';

export const FLEET_CHANNEL = 'muster_fleet';

const PUBLISH_SQL = `
WITH batch AS (
  SELECT * FROM jsonb_to_recordset($2::jsonb) AS b(seq bigint, kind text, key text, op text, data jsonb, at timestamptz)
), ins AS (
  INSERT INTO muster.changes (host_id, seq, kind, key, op, data, at)
  SELECT $1, seq, kind, key, op, data, at FROM batch
  ON CONFLICT (host_id, seq) DO NOTHING
  RETURNING seq
), latest AS (
  SELECT DISTINCT ON (kind, key) * FROM batch ORDER BY kind, key, seq DESC
), up AS (
  INSERT INTO muster.records (host_id, kind, key, seq, data)
  SELECT $1, kind, key, seq, data FROM latest WHERE op = 'upsert'
  ON CONFLICT (host_id, kind, key) DO UPDATE SET seq = excluded.seq, data = excluded.data WHERE muster.records.seq < excluded.seq
  RETURNING 1
), del AS (
  DELETE FROM muster.records r USING latest l
  WHERE l.op = 'delete' AND r.host_id = $1 AND r.kind = l.kind AND r.key = l.key AND r.seq < l.seq
  RETURNING 1
), h AS (
  UPDATE muster.hosts SET last_seq = GREATEST(last_seq, $3), last_seen_at = now() WHERE id = $1 RETURNING id
)
SELECT (SELECT count(*) FROM ins)::int AS inserted, (SELECT count(*) FROM h)::int AS hosts, pg_notify('${FLEET_CHANNEL}', $4)`;

/** What every notification from a host says about it (`h` id, `s` last change published, `n` name, `a` takes commands). */
export interface HostHello {
  h: string;
  s: number;
  n: string;
  a: boolean;
  /** Present when the host left the fleet. */
  left?: true;
}

export interface PublisherOptions {
  outbox: OutboxRepository;
  hostId: string;
  /** The open database, or null while disconnected (a reconnect kicks the publisher). */
  db(): FleetDb | null;
  /** The host's name and whether it takes commands, for the notification. */
  hello(): { n: string; a: boolean };
  /** Registers the host row again (it was removed under us); the batch is then retried. */
  register(): Promise<void>;
  /** Changes per statement. Default: 500. */
  batchSize?: number;
  backoff?: Backoff;
  clock?: () => number;
  /** A publish failed (the database is away); must not throw. */
  onError?(e: Error): void;
  /** A batch was committed. */
  onPublished?(count: number, lastSeq: number): void;
}

export interface Publisher {
  /** Something was queued, or the database came back: publish what waits. */
  kick(): void;
  /** Resolves once the outbox is empty or the database is away (tests, the benchmark, leave). */
  drain(): Promise<void>;
  /** The last change number the database acknowledged. */
  publishedSeq(): number;
  /** Sets the acknowledged change number known from the host row (after registering). */
  setPublishedSeq(seq: number): void;
  /** Epoch ms of the last committed batch, or 0. */
  lastPublishAt(): number;
  close(): void;
}

export function createPublisher(opts: PublisherOptions): Publisher {
  const backoff = opts.backoff ?? createBackoff();
  const clock = opts.clock ?? Date.now;
  const size = opts.batchSize ?? 500;
  let running: Promise<void> | null = null;
  let again = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let published = 0;
  let lastAt = 0;

  async function publish(db: FleetDb, batch: OutboxEntry[]): Promise<void> {
    const last = batch[batch.length - 1] as OutboxEntry;
    const hello: HostHello = { h: opts.hostId, s: Math.max(published, last.seq), ...opts.hello() };
    const rows = batch.map((e) => ({ seq: e.seq, kind: e.kind, key: e.key, op: e.op, data: e.data, at: e.at }));
    const run = () => db.query<{ inserted: number; hosts: number }>(PUBLISH_SQL, [opts.hostId, JSON.stringify(rows), last.seq, JSON.stringify(hello)]);
    try {
      await run();
    } catch (e) {
      // 23503: the host row is gone (the fleet was reset, or the host was removed): register again, once.
      if ((e as { code?: string }).code !== '23503') throw e;
      await opts.register();
      await run();
    }
    opts.outbox.ack(last.seq);
    published = Math.max(published, last.seq);
    lastAt = clock();
    opts.onPublished?.(batch.length, last.seq);
  }

  async function loop(): Promise<void> {
    do {
      again = false;
      while (!closed) {
        const db = opts.db();
        if (!db) return;
        const batch = opts.outbox.peek(size);
        if (batch.length === 0) break;
        try {
          await publish(db, batch);
          backoff.reset();
        } catch (e) {
          opts.onError?.(e as Error);
          if (!closed && !retry) {
            retry = setTimeout(() => {
              retry = undefined;
              kick();
            }, backoff.next());
            retry.unref?.();
          }
          return;
        }
      }
    } while (again && !closed);
  }

  function kick(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = loop().finally(() => {
      running = null;
    });
  }

  return {
    kick,
    async drain() {
      kick();
      while (running) await running;
    },
    publishedSeq: () => published,
    setPublishedSeq(seq) {
      published = Math.max(published, seq);
    },
    lastPublishAt: () => lastAt,
    close() {
      closed = true;
      clearTimeout(retry);
    },
  };
}
