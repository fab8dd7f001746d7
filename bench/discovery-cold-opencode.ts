/**
 * Issue 17, point 2 (OpenCode) — cold index of a large OpenCode store (default 2,000 sessions × 50
 * messages with their parts, bench/corpus/opencode-corpus.ts). Ratios are floor time / time (1.0 = as
 * fast as the floor), the floor being a raw better-sqlite3 SELECT of every session and message row
 * (all columns), measured before and after the runs so load drift on a shared machine shows.
 *   - reading the store, no index: the per-session reader (five queries a session, what a first start
 *     did before) and the bulk reader (one pass over the messages, db-bulk.ts);
 *   - a first start into a real SQLite store: list() reading in this thread (below the cold
 *     threshold), and as the daemon does it over the threshold — the cold index in the worker threads
 *     of the built worker entry, then the listing after it.
 * Also the longest the event loop was blocked in each (a 1 ms timer's largest gap), and tokens and
 * cost summed over the sessions, which must be the same every way.
 * Env: BENCH_OC_SESSIONS (default 2000), BENCH_OC_MESSAGES (default 50). `node scripts/build.mjs` first
 * for the built worker entry (else the .ts entry is run through tsx, slower to start).
 * Run: node --import tsx bench/discovery-cold-opencode.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { createColdIndexer, spawnIndexWorker } from '../src/discovery/index-pool/index.ts';
import { indexWorkerEntry } from '../src/daemon/cold-index.ts';
import { INDEX_FOLDS } from '../src/harnesses/index-folds.ts';
import { createOpenCodeSource, openOpenCodeDb, scanOpenCodeDb } from '../src/harnesses/opencode/discovery/index.ts';
import type { TokenCounts } from '../src/core/session.ts';
import { openSqliteStore } from '../src/store/index.ts';
import { createFakeProc } from '../test/fakes/fake-proc.ts';
import { generateOpenCodeCorpus } from './corpus/opencode-corpus.ts';

const SESSIONS = Number(process.env.BENCH_OC_SESSIONS ?? 2000);
const MESSAGES = Number(process.env.BENCH_OC_MESSAGES ?? 50);
const git = { read: () => ({ repoRoot: null, branch: null }), clear: () => {} };

interface Totals { sessions: number; tokens: number; cost: number }
interface Run extends Totals { ms: number; blockedMs: number }
type Summed = { tokens: TokenCounts; costUsd: number | null }[];

const totals = (list: Summed): Totals => ({
  sessions: list.length,
  tokens: list.reduce((a, s) => a + s.tokens.input + s.tokens.output + s.tokens.cacheRead + s.tokens.cacheWrite, 0),
  cost: list.reduce((a, s) => a + (s.costUsd ?? 0), 0),
});

/** Raw SELECT of every session and message row, every column: what reading the rows costs at the least. */
function floor(dbPath: string): number {
  const t0 = performance.now();
  const db = new Database(dbPath, { readonly: true });
  let n = 0;
  for (const table of ['session', 'message']) for (const _ of db.prepare(`SELECT * FROM ${table}`).raw().iterate()) n++;
  db.close();
  if (n === 0) throw new Error('empty store');
  return performance.now() - t0;
}

/** Times `fn` to its result and the store's batched write after it, watching the event loop. */
async function timed(fn: () => Promise<Summed> | Summed): Promise<Run> {
  let blocked = 0;
  let last = performance.now();
  const tick = setInterval(() => { const now = performance.now(); blocked = Math.max(blocked, now - last); last = now; }, 1);
  const t0 = performance.now();
  const list = await fn();
  await new Promise((r) => setImmediate(r));
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(tick);
  return { ms, blockedMs: blocked, ...totals(list) };
}

function scanOnly(dbPath: string, bulkMin: number): Summed {
  const db = openOpenCodeDb(dbPath);
  try {
    return [...scanOpenCodeDb(db, new Map(), { bulkMin }).sessions.values()];
  } finally {
    db.close();
  }
}

async function firstStart(home: string, dbFile: string, workers: boolean): Promise<Summed> {
  const store = openSqliteStore({ path: dbFile });
  const built = indexWorkerEntry(pathToFileURL(join(import.meta.dirname, '..', 'dist', 'chunks', 'x.js')).href);
  const entry = built ?? indexWorkerEntry();
  const indexer = createColdIndexer({ folds: INDEX_FOLDS, spawn: entry ? () => spawnIndexWorker(entry) : undefined });
  try {
    const source = createOpenCodeSource({ home, proc: createFakeProc(), git, index: store.transcriptIndex, ...(workers ? { cold: { indexer, minBytes: 0 } } : {}) });
    if (workers) {
      const run = source.coldIndex?.(() => {});
      if (!run) throw new Error('no cold index started');
      await run; // the hub lists once the last chunk is in
    }
    const list = await source.list();
    await new Promise((r) => setImmediate(r));
    return list;
  } finally {
    await indexer.close();
    store.close();
  }
}

async function main(): Promise<number> {
  const tmp = mkdtempSync(join(tmpdir(), 'muster-bench-opencode-'));
  try {
    const t0 = performance.now();
    const home = join(tmp, 'opencode');
    const c = generateOpenCodeCorpus({ dataDir: home, sessions: SESSIONS, messages: MESSAGES });
    console.log(`opencode store: ${c.sessions} sessions (+ subagents), ${c.messages} messages, ${c.parts} parts, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // Warm-up on a small store: the timed runs do not also pay for JIT compilation.
    const warm = join(tmp, 'warm');
    const w = generateOpenCodeCorpus({ dataDir: warm, sessions: 50, messages: 10, seed: 3 });
    floor(w.dbPath);
    scanOnly(w.dbPath, 0);
    scanOnly(w.dbPath, Infinity);
    await firstStart(warm, join(tmp, 'warm.db'), true);
    console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} at the start`);

    const before = floor(c.dbPath);
    const each = await timed(() => scanOnly(c.dbPath, Infinity));
    const bulk = await timed(() => scanOnly(c.dbPath, 0));
    const inline = await timed(() => firstStart(home, join(tmp, 'inline.db'), false));
    const cold = await timed(() => firstStart(home, join(tmp, 'cold.db'), true));
    const after = floor(c.dbPath);
    const base = (before + after) / 2;
    const line = (label: string, r: Run): string =>
      `  ${label.padEnd(58)} ${r.ms.toFixed(0).padStart(6)} ms  ratio ${(base / r.ms).toFixed(2)}  event loop blocked up to ${r.blockedMs.toFixed(0)} ms`;
    console.log(`  floor: raw SELECT of every session and message row:       ${before.toFixed(0)} ms before, ${after.toFixed(0)} ms after`);
    console.log(line('read, per-session reader (a first start before this)', each));
    console.log(line('read, bulk reader (one pass)', bulk));
    console.log(line('first start, list() in this thread, SQLite store', inline));
    console.log(line('first start as the daemon: cold index in workers + list()', cold));
    console.log(`  load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} at the end`);
    const same = (a: Totals, b: Totals): boolean => a.sessions === b.sessions && a.tokens === b.tokens && Math.abs(a.cost - b.cost) < 1e-6;
    const ok = same(each, bulk) && same(inline, cold) && each.sessions === c.sessions && inline.sessions === c.sessions;
    console.log(`  ${c.sessions} sessions; tokens ${bulk.tokens}, cost $${bulk.cost.toFixed(4)} read both ways; listed ${cold.tokens} tokens, $${cold.cost.toFixed(4)} both ways: ${ok ? 'identical' : 'DIFFERENT'}`);
    if (!ok) {
      console.log('  ERROR: every way must list every session with the same tokens and cost');
      return 1;
    }
    return 0;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
