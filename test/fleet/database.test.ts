// The fleet's PostgreSQL side on a real server: the schema created safely by daemons arriving at once,
// the command table's contract (claimed exactly once with SKIP LOCKED under concurrent claimers), a
// batch published twice stored once, and the URL's TLS options honoured (verify-full with a root cert).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgDriver, migrateFleetSchema, FLEET_SCHEMA_VERSION, type FleetDb } from '../../src/fleet/index.ts';
import { createPgCommandQueue } from '../../src/fleet/command-queue.ts';
import { createPublisher } from '../../src/fleet/publisher.ts';
import { commandQueueContract } from '../../src/fleet/command-queue.contract.test-support.ts';
import { openSqliteStore } from '../../src/store/index.ts';
import { pgMissing, startCluster, type PgCluster } from './pg-cluster.ts';

const skip = pgMissing();

describe('the fleet database', { skip: skip ?? false }, () => {
  let pg: PgCluster;
  const open: FleetDb[] = [];
  const db = async (): Promise<FleetDb> => {
    const d = await pgDriver().open(pg.url);
    open.push(d);
    return d;
  };
  before(async () => {
    pg = await startCluster();
  });
  after(async () => {
    for (const d of open) await d.close();
    pg?.destroy();
  });

  it('eight daemons arriving at once create the schema once, all succeeding', async () => {
    const dbs = await Promise.all(Array.from({ length: 8 }, () => db()));
    const versions = await Promise.all(dbs.map((d) => migrateFleetSchema(d)));
    assert.deepEqual(versions, Array(8).fill(FLEET_SCHEMA_VERSION));
    const v = await pg.sql<{ value: string }>("SELECT value FROM muster.meta WHERE key = 'schema_version'");
    assert.equal(Number(v[0]?.value), FLEET_SCHEMA_VERSION);
    await assert.rejects(migrateFleetSchema(dbs[0] as FleetDb, [{ version: 0, sql: 'SELECT 1' }]), /newer than this Muster understands/, 'a build older than the schema refuses it');
  });

  commandQueueContract('PostgreSQL', async () => {
    const d = await db();
    await migrateFleetSchema(d);
    await d.query('TRUNCATE muster.commands');
    const others = await Promise.all([db(), db(), db()]);
    let i = 0;
    return { queue: createPgCommandQueue(() => d), other: () => createPgCommandQueue(() => others[i++ % others.length] as FleetDb), close: async () => {} };
  });

  it('a batch whose acknowledgement was lost is published again and stored once', async () => {
    const d = await db();
    await migrateFleetSchema(d);
    const host = 'hst_pppppppppppppppppppppppppp';
    await d.query("INSERT INTO muster.hosts (id, name, version) VALUES ($1, 'P', 't') ON CONFLICT DO NOTHING", [host]);
    const store = openSqliteStore({ path: ':memory:' });
    store.fleetOutbox.enqueue([{ kind: 'page', key: 'pag_a', op: 'upsert', data: { v: 1 } }, { kind: 'page', key: 'pag_a', op: 'upsert', data: { v: 2 } }]);
    const entries = store.fleetOutbox.peek(10);
    // The first attempt commits, then "loses" its answer: the outbox still holds the batch.
    let lose = true;
    const flaky: FleetDb = { ...d, query: async (sql, params) => {
      const r = await d.query(sql, params);
      if (lose) {
        lose = false;
        throw new Error('connection lost after commit');
      }
      return r as never;
    } };
    const p = createPublisher({ outbox: store.fleetOutbox, hostId: host, db: () => flaky, hello: () => ({ n: 'P', a: true }), register: async () => {} });
    await p.drain();
    assert.equal(store.fleetOutbox.stats().queued, 2);
    while (store.fleetOutbox.stats().queued > 0) {
      p.kick();
      await new Promise((r) => setTimeout(r, 50));
    }
    p.close();
    const changes = await d.query<{ seq: string; data: { v: number } }>('SELECT seq, data FROM muster.changes WHERE host_id = $1 ORDER BY seq', [host]);
    assert.deepEqual(changes.map((c) => [Number(c.seq), c.data.v]), entries.map((e) => [e.seq, (e.data as { v: number }).v]), 'each change once');
    const rec = await d.query<{ data: { v: number }; seq: string }>("SELECT data, seq FROM muster.records WHERE host_id = $1 AND kind = 'page'", [host]);
    assert.deepEqual(rec.map((r) => r.data.v), [2], 'the record is the last change');
    store.close();
  });
});

describe('TLS options of the fleet URL', { skip: skip ?? false }, () => {
  let pg: PgCluster;
  const dir = mkdtempSync(join(tmpdir(), 'muster-tls-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  before(async () => {
    // A private CA, a server certificate for the name localhost (not the address 127.0.0.1) signed by it, and an unrelated CA.
    ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=muster test CA', '-keyout', 'ca.key', '-out', 'ca.pem');
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr');
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost\n');
    ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', 'san.ext', '-out', 'server.crt');
    ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=someone else', '-keyout', 'other.key', '-out', 'other.pem');
    pg = await startCluster({ ssl: { cert: readFileSync(join(dir, 'server.crt'), 'utf8'), key: readFileSync(join(dir, 'server.key'), 'utf8') } });
  });
  after(() => {
    pg?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const url = (host: string, params: string) => `postgres://muster:${encodeURIComponent(pg.password)}@${host}:${pg.port}/muster?${params}`;

  it('verify-full with the right root certificate connects over TLS', async () => {
    const d = await pgDriver().open(url('localhost', `sslmode=verify-full&sslrootcert=${join(dir, 'ca.pem')}`));
    try {
      const r = await d.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
      assert.equal(r[0]?.ssl, true);
    } finally {
      await d.close();
    }
  });

  it('verify-full refuses a server its root certificate did not sign, and a name the certificate does not carry', async () => {
    for (const u of [url('localhost', `sslmode=verify-full&sslrootcert=${join(dir, 'other.pem')}`), url('127.0.0.1', `sslmode=verify-full&sslrootcert=${join(dir, 'ca.pem')}`)]) {
      const d = await pgDriver({ connectTimeoutMs: 3000 }).open(u);
      try {
        await assert.rejects(d.query('SELECT 1'), /certificate|self.signed|altnames|does not match/i);
      } finally {
        await d.close();
      }
    }
  });

  it('sslmode=disable talks plain text', async () => {
    const d = await pgDriver().open(url('127.0.0.1', 'sslmode=disable'));
    try {
      assert.equal((await d.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()'))[0]?.ssl, false);
    } finally {
      await d.close();
    }
  });
});
