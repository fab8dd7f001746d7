/**
 * The fleet's one door to PostgreSQL, as a port with a real default (`pgDriver`, node-postgres). The
 * `pg` module is imported on first use only, so a host that never joined a fleet never loads it.
 * Two kinds of connection: a small pool for statements (publishing, heartbeats, commands, snapshots)
 * and one dedicated connection for LISTEN, which must stay open to receive notifications.
 */
import type { ClientConfig, PoolClient } from 'pg';

/** Runs one statement; resolves with its rows. */
export type Query = <R = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<R[]>;

export interface FleetDb {
  query: Query;
  /** Runs `fn` on one connection between BEGIN (with `begin`'s options) and COMMIT; ROLLBACK when it throws. */
  transaction<T>(fn: (q: Query) => Promise<T>, begin?: string): Promise<T>;
  /** Closes every connection. Idempotent. */
  close(): Promise<void>;
}

export interface ListenHandlers {
  /** A notification on one of the channels. Must not throw. */
  notify(channel: string, payload: string): void;
  /** The connection failed or ended (it is not reopened here: the caller decides when). */
  down(error: Error | null): void;
}

export interface ListenConnection {
  close(): Promise<void>;
}

export interface FleetDriver {
  open(url: string): Promise<FleetDb>;
  /** Connects, LISTENs on every channel (names the caller validated), and reports notifications. */
  listen(url: string, channels: readonly string[], handlers: ListenHandlers): Promise<ListenConnection>;
}

export interface PgDriverOptions {
  /** Connection attempts give up after this long, ms. Default: 5000. */
  connectTimeoutMs?: number;
  /** Server-side bound of one statement, ms. Default: 15000. */
  statementTimeoutMs?: number;
  /** Pool size. Default: 3. */
  poolSize?: number;
}

/** A LISTEN channel name is an identifier; only names built from checked parts reach here. */
const CHANNEL_RE = /^[a-z0-9_]{1,63}$/;

type PgModule = typeof import('pg');
let loading: Promise<PgModule> | undefined;
/** node-postgres, loaded once, on first use (it is CommonJS: its exports are the default). */
const loadPg = (): Promise<PgModule> => (loading ??= import('pg').then((m) => (m as unknown as { default: PgModule }).default ?? m));

export function pgDriver(options: PgDriverOptions = {}): FleetDriver {
  const base = (url: string): ClientConfig => ({
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    statement_timeout: options.statementTimeoutMs ?? 15_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'muster',
  });
  return {
    async open(url) {
      const pg = await loadPg();
      const pool = new pg.Pool({ ...base(url), max: options.poolSize ?? 3, idleTimeoutMillis: 60_000 });
      // An idle connection that dies (the server restarted) is dropped by the pool; the next query
      // opens a fresh one. Without a listener the error would end the process.
      pool.on('error', () => {});
      const query: Query = async (sql, params) => (await pool.query(sql, params)).rows;
      let closed: Promise<void> | undefined;
      return {
        query,
        async transaction(fn, begin = 'BEGIN') {
          const client: PoolClient = await pool.connect();
          let broken: Error | undefined;
          try {
            await client.query(begin);
            const q: Query = async (sql, params) => (await client.query(sql, params)).rows;
            const out = await fn(q);
            await client.query('COMMIT');
            return out;
          } catch (e) {
            broken = e as Error;
            await client.query('ROLLBACK').catch(() => {});
            throw e;
          } finally {
            client.release(broken);
          }
        },
        close: () => (closed ??= pool.end().catch(() => {})),
      };
    },
    async listen(url, channels, handlers) {
      for (const c of channels) if (!CHANNEL_RE.test(c)) throw new Error(`not a channel name: ${c}`);
      const pg = await loadPg();
      const client = new pg.Client(base(url));
      let ended = false;
      const down = (e: Error | null) => {
        if (ended) return;
        ended = true;
        handlers.down(e);
      };
      client.on('notification', (m) => {
        if (m.payload !== undefined) handlers.notify(m.channel, m.payload);
      });
      client.on('error', (e) => down(e));
      client.on('end', () => down(null));
      try {
        await client.connect();
        for (const c of channels) await client.query(`LISTEN "${c}"`);
      } catch (e) {
        ended = true;
        await client.end().catch(() => {});
        throw e;
      }
      return {
        async close() {
          ended = true;
          await client.end().catch(() => {});
        },
      };
    },
  };
}
