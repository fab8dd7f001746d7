/**
 * Issue 19 — the fleet on a real PostgreSQL (a throwaway cluster, test/fleet/pg-cluster.ts), real daemons:
 * 1. A status change on host A → the event at an SSE client of host B, 3 hosts joined: p50/p95 over
 *    BENCH_CHANGES (default 40) changes; baseline in the same run: the same change at A's own SSE client.
 *    Target: p95 <= 500 ms.
 * 2. PostgreSQL statements per second with every session idle (heartbeats only), per host, over
 *    BENCH_IDLE_SECONDS (default 60): transactions from pg_stat_database, statements from pg_stat_statements
 *    (both read from another database, so the reading does not count). Target: <= 5 per host.
 * 3. 20 hosts × 500 sessions (10,000 rows): one real host with 500 sessions of its own, 19 simulated hosts'
 *    500 each written to the database; `muster ls --json` median over BENCH_RUNS (default 7), against the
 *    single-host figure measured in the same run: one host alone with 10,000 sessions of its own (and with
 *    500). Target: fleet <= 2x single host.
 * 4. Catch-up: PostgreSQL stopped for BENCH_OUTAGE_SECONDS (default 60) while host A queues BENCH_QUEUED
 *    (default 5,000) changes (pages asked); then started: time until A's outbox is drained, and until host
 *    B lists the last of them.
 * Needs `npm run build` and PostgreSQL's binaries. Run: node --import tsx bench/fleet.ts
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pgBinDir, startCluster, type PgCluster } from '../test/fleet/pg-cluster.ts';
import { startHost, type Host } from '../test/fleet/fleet-kit.ts';
import { writeRegistry } from '../test/browser/browser-kit.ts';
import { userLine, writeTranscript } from '../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { createDeferredSqliteIndex } from './corpus/batched-index.ts';
import { createClaudeSource } from '../src/harnesses/claude/discovery/index.ts';
import { median, percentile, sleep, spawnFakeClaude, writeManyClaudeTranscripts, killChildren } from './corpus/daemon-kit.ts';
import { newHostId } from '../src/fleet/config.ts';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 40);
const IDLE_S = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const OUTAGE_S = Number(process.env.BENCH_OUTAGE_SECONDS ?? 60);
const QUEUED = Number(process.env.BENCH_QUEUED ?? 5000);
const HOSTS = 20;
const PER_HOST = 500;
const BIN = join(import.meta.dirname, '..', 'bin', 'muster.js');
const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;
const hosts: Host[] = [];

async function until<T>(fn: () => Promise<T | undefined>, ms: number, what: string, stepMs = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(stepMs);
  }
}

/** A host whose home already holds `n` indexed Claude sessions (indexed in one transaction, as discovery-scale.ts does). */
async function hostWith(name: string, n: number, join?: string): Promise<Host> {
  const h = await startHost(name, {});
  await h.stop();
  writeManyClaudeTranscripts(h.claudeHome, n);
  const deferred = createDeferredSqliteIndex(join_(h.home, 'muster.db'));
  await createClaudeSource({ home: h.claudeHome, index: deferred.index }).list();
  deferred.flush();
  deferred.close();
  await h.restart();
  hosts.push(h);
  if (join) {
    const r = await h.cli(['fleet', 'join', join, '--name', name], { timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(`${name} could not join: ${r.stderr}`);
  }
  return h;
}
const join_ = join;

function timeLs(h: Host): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'ls', '--json'], { env: h.env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`ls failed: ${r.stderr}`);
  return performance.now() - t0;
}
function lsMedian(h: Host): { ms: number; count: number } {
  const r = spawnSync(process.execPath, [BIN, 'ls', '--json'], { env: h.env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 512 * 1024 * 1024 });
  const count = (JSON.parse(r.stdout.toString()) as { sessions: unknown[] }).sessions.length;
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) xs.push(timeLs(h));
  return { ms: median(xs), count };
}

async function latency(A: Host, B: Host): Promise<void> {
  const claude = spawnFakeClaude(900);
  await sleep(100);
  const id = '1a7e0000-0000-4000-8000-000000000001';
  const cwd = '/home/dev/latency';
  writeTranscript(A.claudeHome, id, [userLine('a live session on A', { sessionId: id, cwd })], cwd);
  writeRegistry(A.claudeHome, { id, cwd, title: '', pid: claude.pid, status: 'busy' });
  const [local, remote] = [await A.sse(), await B.sse()];
  await remote.next('session.upserted', (d) => (d.session as { id: string }).id === id, 20_000);
  const viaB: number[] = [];
  const viaA: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const marker = `question ${i} ${Date.now()}`;
    const t0 = performance.now();
    writeRegistry(A.claudeHome, { id, cwd, title: '', pid: claude.pid, status: 'waiting', waitingFor: marker });
    const [a, b] = await Promise.all([
      local.next('session.upserted', (d) => (d.session as { waitingFor: string | null }).waitingFor === marker, 10_000),
      remote.next('session.upserted', (d) => (d.session as { waitingFor: string | null }).waitingFor === marker, 10_000),
    ]);
    viaA.push(a.at - t0);
    viaB.push(b.at - t0);
    await sleep(150);
  }
  local.close();
  remote.close();
  console.log(`status change on A → SSE at B (3 hosts): p50 ${fmt(percentile(viaB, 0.5))}, p95 ${fmt(percentile(viaB, 0.95))} (target p95 <= 500 ms), max ${fmt(Math.max(...viaB))}`);
  console.log(`  baseline, the same change at A's own SSE: p50 ${fmt(percentile(viaA, 0.5))}, p95 ${fmt(percentile(viaA, 0.95))}; the fleet adds p50 ${fmt(percentile(viaB, 0.5) - percentile(viaA, 0.5))}`);
}

async function idle(pg: PgCluster, joined: number): Promise<void> {
  const read = async () => {
    const rows = await pg.sqlOn<{ xacts: string }>('postgres', "SELECT xact_commit + xact_rollback AS xacts FROM pg_stat_database WHERE datname = 'muster'");
    const statements = await pg.sqlOn<{ query: string; calls: string }>('postgres', "SELECT s.query, s.calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = 'muster'");
    return { xacts: Number(rows[0]?.xacts ?? 0), statements: new Map(statements.map((r) => [r.query, Number(r.calls)])) };
  };
  await sleep(2000);
  const a = await read();
  const t0 = performance.now();
  await sleep(IDLE_S * 1000);
  const b = await read();
  const secs = (performance.now() - t0) / 1000;
  const deltas = [...b.statements].map(([q, n]) => [q, n - (a.statements.get(q) ?? 0)] as const).filter(([, n]) => n > 0).sort((x, y) => y[1] - x[1]);
  const calls = deltas.reduce((n, [, d]) => n + d, 0);
  console.log(`idle PostgreSQL load over ${secs.toFixed(0)} s, ${joined} hosts: ${(calls / secs / joined).toFixed(2)} statements/s per host (pg_stat_statements), ${((b.xacts - a.xacts) / secs / joined).toFixed(2)} transactions/s per host (pg_stat_database: every transaction in that database, whoever ran it) (target <= 5)`);
  for (const [q, n] of deltas.slice(0, 4)) console.log(`  ${n} × ${q.replace(/\s+/g, ' ').slice(0, 110)}`);
}

async function scale(pg: PgCluster): Promise<void> {
  const single = await hostWith('single', HOSTS * PER_HOST);
  const M = await hostWith('M', PER_HOST);
  const s500 = lsMedian(M);
  // 19 simulated hosts, each with M's 500 sessions under new ids, written straight into the database,
  // and kept alive by a heartbeat every 10 s as a real host's (one UPDATE and one NOTIFY each).
  const mine = (await M.api('GET', '/sessions')).json.sessions as { id: string; harness: string }[];
  const simulated: { id: string; name: string }[] = [];
  for (let h = 1; h < HOSTS; h++) {
    const host = { id: newHostId(), name: `sim-${String(h).padStart(2, '0')}` };
    simulated.push(host);
    await pg.sql("INSERT INTO muster.hosts (id, name, version, last_seq) VALUES ($1, $2, 'bench', $3)", [host.id, host.name, PER_HOST]);
    const rows = mine.map((s, i) => {
      const sid = `${String(h).padStart(8, '0')}-${s.id.slice(9)}`;
      return { kind: 'session', key: `${s.harness}:${sid}`, seq: i + 1, data: { ...s, id: sid } };
    });
    await pg.sql('INSERT INTO muster.records (host_id, kind, key, seq, data) SELECT $1, kind, key, seq, data FROM jsonb_to_recordset($2::jsonb) AS r(kind text, key text, seq bigint, data jsonb)', [host.id, JSON.stringify(rows)]);
  }
  const beat = async () => {
    for (const h of simulated) await pg.sql("UPDATE muster.hosts SET last_seen_at = now() WHERE id = $1", [h.id]).then(() => pg.sql("SELECT pg_notify('muster_fleet', $1)", [JSON.stringify({ h: h.id, s: PER_HOST, n: h.name, a: true })]));
  };
  await beat();
  const beating = setInterval(() => void beat().catch(() => {}), 10_000);
  try {
    const r = await M.cli(['fleet', 'join', pg.url, '--name', 'M'], { timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(`M could not join: ${r.stderr}`);
    await until(async () => {
      const n = ((await M.api('GET', '/sessions')).json.sessions as unknown[]).length;
      return n >= HOSTS * PER_HOST ? true : undefined;
    }, 120_000, 'M lists every host');
    // Interleaved, so both see the same machine (two shared cores here).
    const fleetCount = (JSON.parse(spawnSync(process.execPath, [BIN, 'ls', '--json'], { env: M.env, maxBuffer: 512 * 1024 * 1024 }).stdout.toString()) as { sessions: unknown[] }).sessions.length;
    timeLs(single);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      xs.push(timeLs(single));
      ys.push(timeLs(M));
    }
    const s10k = median(xs);
    const fleet = median(ys);
    console.log(`muster ls --json, ${HOSTS} hosts × ${PER_HOST} sessions (${fleetCount} rows, ${PER_HOST} local): median ${fmt(fleet)} over ${RUNS} runs`);
    console.log(`  single host with ${HOSTS * PER_HOST} sessions of its own, interleaved: median ${fmt(s10k)} → fleet/single ${(fleet / s10k).toFixed(2)}x (target <= 2x); single host with ${s500.count} (before joining): ${fmt(s500.ms)}`);
  } finally {
    clearInterval(beating);
  }
  await M.cli(['fleet', 'leave']);
  await M.stop();
  await single.stop();
}

async function catchUp(pg: PgCluster, A: Host, B: Host): Promise<void> {
  await A.api('POST', '/settings', { maxPendingPerSession: 10_000 });
  const status = async () => ((await A.api('GET', '/fleet')).json.fleet as { outbox: { queued: number } }).outbox.queued;
  pg.stop();
  const outageStart = performance.now();
  let last = '';
  const t0 = performance.now();
  // Eight clients at once (each page is a SQLite commit, then an outbox commit); the last one notified is waited for on B.
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < QUEUED) {
      const i = next++;
      const r = await A.api('POST', '/pages/notify', { message: `queued change ${i}`, level: 'info' });
      if (r.status !== 200) throw new Error(`notify refused: ${JSON.stringify(r.json)}`);
      if (i === QUEUED - 1) last = (r.json.page as { id: string }).id;
    }
  }));
  const queueMs = performance.now() - t0;
  const queued = await status();
  const rest = OUTAGE_S * 1000 - (performance.now() - outageStart);
  if (rest > 0) await sleep(rest);
  console.log(`catch-up: ${queued} changes queued on A in ${fmt(queueMs)} with the database stopped ${((performance.now() - outageStart) / 1000).toFixed(0)} s`);
  pg.start();
  const t1 = performance.now();
  await until(async () => ((await status()) === 0 ? true : undefined), 300_000, 'A drained', 50);
  const drained = performance.now() - t1;
  await until(async () => ((await B.api('GET', `/pages/${last}`)).status === 200 ? true : undefined), 300_000, 'B has the last change', 50);
  const onB = performance.now() - t1;
  console.log(`  database back → A's outbox drained: ${fmt(drained)} (includes reconnect backoff, at most 5 s); → B lists the last change: ${fmt(onB)}`);
}

async function main(): Promise<number> {
  if (!pgBinDir()) {
    console.log('skipped: PostgreSQL is not installed (apt-get install postgresql, or set MUSTER_PG_BIN)');
    return 0;
  }
  const pg = await startCluster({ statStatements: true });
  try {
    // Read from the `postgres` database, so the reading itself is not counted in `muster`'s figures.
    await pg.sqlOn('postgres', 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const A = await startHost('A', { join: pg.url });
    const B = await startHost('B', { join: pg.url });
    const C = await startHost('C', { join: pg.url });
    hosts.push(A, B, C);
    // BENCH_ONLY=latency,idle,scale,catchup runs only those figures.
    const only = (process.env.BENCH_ONLY ?? 'latency,idle,scale,catchup').split(',');
    if (only.includes('latency')) await latency(A, B);
    if (only.includes('idle')) await idle(pg, 3);
    if (only.includes('scale')) await scale(pg);
    if (only.includes('catchup')) await catchUp(pg, A, B);
    return 0;
  } finally {
    for (const h of hosts) await h.stop().catch(() => {});
    killChildren();
    pg.destroy();
    for (const h of hosts) h.cleanup();
  }
}

main().then((code) => process.exit(code), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
