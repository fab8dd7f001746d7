/**
 * A throwaway PostgreSQL cluster for the fleet tier: `initdb` into a temp dir, `pg_ctl start` on
 * 127.0.0.1 with a free port (and its unix socket in the same temp dir), a password-protected role,
 * torn down (and its files removed) by `destroy()` or when the test process exits.
 *
 * initdb refuses to run as root. When the tests run as root (CI containers), the cluster is created
 * and run as the unprivileged `postgres` user that Debian's package creates (or `nobody` when there
 * is none) through `runuser -u <user> --`; the temp dir is handed to that user. As any other user it
 * runs as that user. The binaries come from MUSTER_PG_BIN, else the newest /usr/lib/postgresql/<v>/bin,
 * else PATH.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PgCluster {
  /** A URL for the test database (`muster`), with the password in it. */
  url: string;
  port: number;
  dir: string;
  /** The cluster's role and its password. */
  user: string;
  password: string;
  /** Runs one statement as that role on the test database. */
  sql<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** The same on another database of the cluster (e.g. `postgres`, to read statistics without adding to them). */
  sqlOn<R = Record<string, unknown>>(database: string, text: string, params?: unknown[]): Promise<R[]>;
  /** Stops the server (fast shutdown: clients are disconnected). */
  stop(): void;
  /** Starts it again on the same port. */
  start(): void;
  /** Stops it and removes its files. Idempotent. */
  destroy(): void;
  /** The server's log so far (for failure messages). */
  log(): string;
}

export interface PgClusterOptions {
  /** TLS: the server's certificate and key (PEM text; the cluster then listens with ssl=on). */
  ssl?: { cert: string; key: string };
  /** Loads pg_stat_statements (the benchmark counts statements with it). */
  statStatements?: boolean;
}

/** Where initdb and pg_ctl are, or null when PostgreSQL is not installed. */
export function pgBinDir(): string | null {
  if (process.env.MUSTER_PG_BIN) return process.env.MUSTER_PG_BIN;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  }
  const r = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return r.status === 0 ? join(r.stdout.trim(), '..') : null;
}

/** Why the fleet tier cannot run here, or null when it can. In CI a missing PostgreSQL fails instead of skipping. */
export function pgMissing(): string | null {
  if (pgBinDir()) return null;
  const why = 'PostgreSQL is not installed (apt-get install postgresql, or set MUSTER_PG_BIN)';
  if (process.env.CI) throw new Error(why);
  return why;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The unprivileged user a root test process runs the cluster as. */
function runAs(): string | null {
  if (process.getuid?.() !== 0) return null;
  const has = (u: string) => spawnSync('id', ['-u', u]).status === 0;
  return has('postgres') ? 'postgres' : 'nobody';
}

const live = new Set<PgCluster>();
process.on('exit', () => {
  for (const c of live) c.destroy();
});

export async function startCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  const bin = pgBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed');
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'muster-pg-'));
  const data = join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}-secret`;
  writeFileSync(join(dir, 'pwfile'), `${password}\n`);
  const own = (p: string) => {
    if (!user) return;
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
    chownSync(p, uid, gid);
  };
  own(dir);
  own(join(dir, 'pwfile'));
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = user ? ['runuser', ['-u', user, '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    const r = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}\n${existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8') : ''}`);
  };
  if (options.ssl) {
    writeFileSync(join(dir, 'server.crt'), options.ssl.cert);
    writeFileSync(join(dir, 'server.key'), options.ssl.key, { mode: 0o600 });
    own(join(dir, 'server.crt'));
    own(join(dir, 'server.key'));
  }
  run('initdb', ['-D', data, '-U', 'muster', '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${join(dir, 'pwfile')}`, '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const port = await freePort();
  const conf = [
    `port = ${port}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${dir}'`,
    'fsync = off', 'synchronous_commit = off', 'full_page_writes = off', 'max_connections = 200', 'shared_buffers = 32MB',
    ...(options.statStatements ? ["shared_preload_libraries = 'pg_stat_statements'", 'pg_stat_statements.track = all'] : []),
    ...(options.ssl ? ['ssl = on', `ssl_cert_file = '${join(dir, 'server.crt')}'`, `ssl_key_file = '${join(dir, 'server.key')}'`] : []),
  ];
  appendFileSync(join(data, 'postgresql.conf'), `\n${conf.join('\n')}\n`);
  const ctl = (args: string[]) => run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), ...args]);
  ctl(['-w', '-t', '60', 'start']);
  let up = true;
  const url = `postgres://muster:${encodeURIComponent(password)}@127.0.0.1:${port}/muster`;
  const admin = new pg.Client({ connectionString: `postgres://muster:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE muster');
  await admin.end();
  let destroyed = false;
  const cluster: PgCluster = {
    url, port, dir, user: 'muster', password,
    sql: (text, params) => cluster.sqlOn('muster', text, params),
    async sqlOn(database, text, params) {
      const c = new pg.Client({ connectionString: url.replace(/\/muster$/, `/${database}`) });
      await c.connect();
      try {
        return (await c.query(text, params)).rows;
      } finally {
        await c.end();
      }
    },
    stop() {
      if (!up) return;
      ctl(['-w', '-m', 'fast', 'stop']);
      up = false;
    },
    start() {
      if (up) return;
      ctl(['-w', '-t', '60', 'start']);
      up = true;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      live.delete(cluster);
      if (up) {
        try {
          ctl(['-w', '-m', 'immediate', 'stop']);
        } catch {}
        up = false;
      }
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => (existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8') : ''),
  };
  live.add(cluster);
  return cluster;
}
