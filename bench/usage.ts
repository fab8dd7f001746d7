/**
 * Issue 20 — `muster usage --by day` over 10,000 sessions (BENCH_SESSIONS), target <= 150 ms wall
 * time for the CLI (its own start included), both as a repeated query (the daemon answers an unchanged
 * report again until the next write) and as one built afresh (a distinct --since each run), beside baselines measured interleaved in the same run:
 * `node -e 0` and `muster status` (a CLI round trip to the daemon that reads nothing).
 * Two stores: (a) 10,000 Claude transcripts indexed by the real source (two API messages each, over
 * a week); (b) the same plus 200,000 more usage records written straight into the store (20 per
 * session, each session within two hours of one of 90 days, five models), the heavier history of a
 * long-used machine.
 * Needs `npm run build` first. Run: node --import tsx bench/usage.ts
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createClaudeSource } from '../src/harnesses/claude/discovery/index.ts';
import { openSqliteStore } from '../src/store/index.ts';
import type { UsageRecord } from '../src/core/usage-record.ts';
import { api, benchHome, median, startDaemon, writeManyClaudeTranscripts } from './corpus/daemon-kit.ts';
import { createRng } from './corpus/text-pool.ts';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const { home: benchRoot, env, cleanup } = benchHome('muster-bench-usage-');
const bin = join(import.meta.dirname, '..', 'bin', 'muster.js');
const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;

function timeCli(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return performance.now() - t0;
}

/**
 * 20 records per session (what a heavily used machine accumulates): each session on one of 90 days,
 * its messages within two hours, mostly on one model and now and then another of five.
 */
function manyRecords(ids: string[]): UsageRecord[] {
  const rng = createRng(20);
  const models = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'claude-haiku-4-5-20251001', 'gpt-5-codex', 'fake-model'];
  const start = Date.UTC(2026, 6, 1);
  const out: UsageRecord[] = [];
  for (const [i, id] of ids.entries()) {
    const begin = start + Math.floor(rng() * 90 * 86_400_000);
    for (let k = 0; k < 20; k++) {
      out.push({
        harness: 'claude', key: `bench_${i}_${k}`, sessionId: id, rank: 0, at: begin + Math.floor(rng() * 2 * 3_600_000),
        model: models[rng() < 0.9 ? i % models.length : (i + k) % models.length] ?? 'fake-model',
        tokens: { input: 100 + Math.floor(rng() * 5000), output: 10 + Math.floor(rng() * 800), cacheRead: Math.floor(rng() * 50_000), cacheWrite: Math.floor(rng() * 2000), reasoning: 0 },
        costUsd: null,
      });
    }
  }
  return out;
}

async function measure(label: string): Promise<number> {
  const d = await startDaemon(env);
  try {
    const warm = await api(d, '/api/usage?by=day&tz=UTC');
    const rows = (warm.body.rows as unknown[] | undefined)?.length ?? 0;
    timeCli([bin, 'usage', '--by', 'day', '--json']);
    const usage: number[] = [];
    const fresh: number[] = [];
    const node: number[] = [];
    const status: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      node.push(timeCli(['-e', '0']));
      status.push(timeCli([bin, 'status']));
      usage.push(timeCli([bin, 'usage', '--by', 'day', '--json']));
      // A query the daemon has not answered since the last write (a distinct --since before every record): built afresh.
      fresh.push(timeCli([bin, 'usage', '--by', 'day', '--json', '--since', `2020-01-${String(i + 1).padStart(2, '0')}`]));
    }
    const http: number[] = [];
    for (let i = 0; i < RUNS; i++) http.push((await api(d, `/api/usage?by=day&tz=UTC&since=2019-01-${String(i + 1).padStart(2, '0')}`)).ms);
    const m = median(usage);
    console.log(`${label}: muster usage --by day --json median ${fmt(m)} (target <= 150 ms; ${rows} day rows); node -e 0 median ${fmt(median(node))} (ratio ${(m / median(node)).toFixed(2)}); muster status median ${fmt(median(status))} (ratio ${(m / median(status)).toFixed(2)})`);
    console.log(`  the same, each built afresh (a report not answered since the last write): median ${fmt(median(fresh))}`);
    console.log(`  GET /api/usage?by=day alone, built afresh (in-process fetch): median ${fmt(median(http))}`);
    return Math.max(m, median(fresh));
  } finally {
    await d.stop();
  }
}

async function main(): Promise<number> {
  let t0 = performance.now();
  const ids = writeManyClaudeTranscripts(join(benchRoot, '.claude'), SESSIONS);
  console.log(`${SESSIONS} Claude transcripts written in ${fmt(performance.now() - t0)}`);
  // The daemon's own store, indexed in-process first (its first scan of 10,000 files would outlast the kit's start timeout).
  t0 = performance.now();
  const store = openSqliteStore({ path: join(benchRoot, 'muster.db') });
  const listed = (await createClaudeSource({ home: join(benchRoot, '.claude'), index: store.transcriptIndex }).list()).length;
  store.close();
  console.log(`indexed ${listed} sessions with their usage records in ${fmt(performance.now() - t0)}`);
  const a = await measure(`(a) ${SESSIONS} sessions, ${SESSIONS * 2} records`);

  const more = openSqliteStore({ path: join(benchRoot, 'muster.db') });
  const records = manyRecords(ids);
  more.transcriptIndex.put({ path: '/bench/records', harness: 'claude', size: 0, mtimeMs: 0, offset: 0, summary: null, usage: records });
  more.close();
  const b = await measure(`(b) ${SESSIONS} sessions, ${SESSIONS * 2 + records.length} records`);
  return a <= 150 && b <= 150 ? 0 : 1;
}

try {
  process.exitCode = await main();
} finally {
  cleanup();
}
