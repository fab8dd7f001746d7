/**
 * Issue 18 — search over the synthetic Claude corpus the discovery benches build (default 1.2 GB in
 * 2,000 transcripts, BENCH_CORPUS_MB / BENCH_CORPUS_FILES):
 *   1. cold index throughput: the Claude source's first list() into a real SQLite store, (a) with the
 *      search off (`search: false`: no messages extracted nor written — the discovery index alone,
 *      summaries and usage) and (b) with them extracted and indexed in FTS5 by the daemon's search thread
 *      (dist/search-writer.js, when built); each timed to the store's close, which waits for the thread.
 *      Target: (b) ≤ 1.5 × (a).
 *      BENCH_ROUNDS (default 3) rounds alternate them; each (b) against the mean of the (a) on either
 *      side, the median of those ratios the figure (one pair varies by ±20 % on a shared 2-core VM).
 *      Then the same two through the daemon's own cold path (needs `npm run build`): the worker threads
 *      of dist/index-worker.js reading, this thread writing into a store with the daemon's commit
 *      spacing, timed to the last of the chunks the daemon writes after a first start's hold and its
 *      second pass for search's messages (as while no request comes); with the longest stall of this
 *      thread (what a board waits for meanwhile).
 *   2. index size: the store and search database files of (b) minus those of (a), as a fraction of the
 *      transcript bytes (target ≤ 35 %).
 *   3. query latency: 20 typical queries through the search service over (b), 5 rounds: p50 and p95
 *      (target p95 ≤ 50 ms).
 *   4. daemon RSS: a real `muster serve` over 10,000 sessions (BENCH_SESSIONS) with their index built,
 *      after a round of searches over HTTP (target ≤ 300 MB).
 *   5. the daemon's own first start over the corpus (needs `npm run build`): a real `muster serve` on a
 *      fresh store, /api/status polled until every session is listed, then the store read (no request,
 *      so the writes go out in the daemon's large chunks) until its last search row is written.
 * Run: node --import tsx bench/search.ts   (needs `npm run build` for parts 1's worker threads, 4 and 5)
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { createClaudeSource } from '../src/harnesses/claude/discovery/index.ts';
import { DEFAULT_INDEX_FLUSH_INTERVAL_MS, openSqliteStore, searchDbPathOf } from '../src/store/index.ts';
import type { SearchThreadSpawn } from '../src/store/index.ts';
import type { Store } from '../src/store/index.ts';
import { createSearchService } from '../src/search/index.ts';
import { createColdIndexer, spawnIndexWorker } from '../src/discovery/index-pool/index.ts';
import { INDEX_FOLDS } from '../src/harnesses/index-folds.ts';
import { generateClaudeCorpus } from './corpus/claude-corpus.ts';
import { api, benchHome, median, percentile, rssMb, sleep, startDaemon, writeManyClaudeTranscripts } from './corpus/daemon-kit.ts';

const MiB = 1024 * 1024;
const TOTAL_MB = Number(process.env.BENCH_CORPUS_MB ?? 1229);
const FILES = Number(process.env.BENCH_CORPUS_FILES ?? 2000);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
/** Rounds of (with search, discovery alone) after a first discovery alone; the median ratio is reported. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

/**
 * 20 queries: ten made of the filler's most frequent words (bench/corpus/text-pool.ts draws words by
 * Zipf's law; these 40 come first, so each is in thousands of the indexed messages — the worst case for
 * ranking), ten of words an operator types that the filler holds rarely or never. Words, phrases,
 * prefixes, a path, filters.
 */
const QUERIES = [
  'session offset', '"transcript index"', 'daem*', 'parser error', 'role:user buffer', 'harness:claude summary', 'record since:30d',
  'src/hub/hub.ts', 'résumé', 'status value',
  'flaky login', 'migration', 'bill*', '"pull request"', 'typescript', 'README', 'deploy', 'kubernetes', 'role:tool-call Edit', 'why does',
];

const WORKER_ENTRY = join(import.meta.dirname, '..', 'dist', 'index-worker.js');
/** The daemon's search thread (dist/search-writer.js), when built; else the index writes search in its own transactions. */
const SEARCH_ENTRY = join(import.meta.dirname, '..', 'dist', 'search-writer.js');
const searchThread: SearchThreadSpawn | undefined = existsSync(SEARCH_ENTRY) ? (init) => spawnIndexWorker(SEARCH_ENTRY, init) : undefined;

/** Bytes of the store and its search database, their WALs checkpointed. */
function storeBytes(dbPath: string): number {
  let bytes = 0;
  for (const path of [dbPath, searchDbPathOf(dbPath)]) {
    const db = new Database(path);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    bytes += statSync(path).size;
  }
  return bytes;
}

async function coldIndex(home: string, dbPath: string, search: boolean): Promise<{ ms: number; sessions: number; bytes: number }> {
  const store = openSqliteStore({ path: dbPath, searchThread, log: console.log });
  const t0 = performance.now();
  const sessions = (await createClaudeSource({ home, index: store.transcriptIndex, search }).list()).length;
  store.close(); // flushes the last batch and waits for the search thread: its FTS inserts are part of the cost
  const ms = performance.now() - t0;
  return { ms, sessions, bytes: storeBytes(dbPath) };
}

/** The daemon's cold path: worker threads read, this thread writes, commits spaced as the daemon spaces them. */
async function pooledColdIndex(home: string, dbPath: string, search: boolean): Promise<{ ms: number; sessions: number; stallMs: number }> {
  // As in a daemon that no request reaches meanwhile: the writes after the hold go out in its large chunks.
  const store = openSqliteStore({ path: dbPath, indexFlushIntervalMs: DEFAULT_INDEX_FLUSH_INTERVAL_MS, indexBusy: () => false, searchThread, log: console.log });
  const indexer = createColdIndexer({ folds: INDEX_FOLDS, spawn: () => spawnIndexWorker(WORKER_ENTRY) });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const t0 = performance.now();
  const source = createClaudeSource({ home, index: store.transcriptIndex, search, cold: { indexer } });
  const run = source.coldIndex?.(() => {});
  if (run) await run;
  const sessions = (await source.list()).length;
  // The daemon's last write, in its own chunks (not one at close, which a daemon never does), after the
  // second pass that reads the files again for search's messages (cold-run.ts).
  while ((store.transcriptIndex.waiting?.() ?? 0) > 0 || (store.transcriptIndex.searchBehind?.() ?? 0) > 0) await new Promise((r) => setTimeout(r, 2));
  store.close();
  const ms = performance.now() - t0;
  delay.disable();
  await indexer.close();
  return { ms, sessions, stallMs: delay.max / 1e6 };
}

/** Part 5: spawn → every session listed → the last search row written, over `claudeHome`. */
async function daemonFirstStart(claudeHome: string, files: number, messages: number): Promise<void> {
  const { home, env, cleanup } = benchHome('muster-bench-search-first-');
  const t0 = performance.now();
  const d = await startDaemon({ ...env, CLAUDE_CONFIG_DIR: claudeHome });
  try {
    const deadline = performance.now() + 180_000;
    const until = async (done: () => Promise<boolean> | boolean, what: string): Promise<number> => {
      while (!(await done())) {
        if (performance.now() > deadline) throw new Error(`the daemon's first start: not ${what} within 180 s`);
        await sleep(20);
      }
      return performance.now() - t0;
    };
    const listed = await until(async () => {
      const ix = (await api(d, '/api/status')).body.indexing as { active?: boolean; done?: number } | undefined;
      return ix?.active === false && ix.done === files;
    }, `every session listed (${files})`);
    const db = new Database(searchDbPathOf(join(home, 'muster.db')), { readonly: true });
    const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM search_docs');
    const searchable = await until(() => (count.get()?.n ?? 0) >= messages, `every message written (${messages})`);
    db.close();
    console.log(`daemon's first start over the corpus: serving after ${d.startMs.toFixed(0)} ms, every session listed after ${listed.toFixed(0)} ms, its last search row written after ${searchable.toFixed(0)} ms (from the spawn)`);
  } finally {
    await d.stop();
    cleanup();
  }
}

async function queryLatency(store: Store): Promise<{ all: number[]; common: number[]; rare: number[] }> {
  const service = createSearchService({ repo: store.search, session: () => undefined });
  const out = { all: [] as number[], common: [] as number[], rare: [] as number[] };
  for (let round = 0; round < 5; round++) {
    for (const [i, q] of QUERIES.entries()) {
      const t0 = performance.now();
      await service.search({ q });
      const ms = performance.now() - t0;
      out.all.push(ms);
      (i < 10 ? out.common : out.rare).push(ms);
    }
  }
  return out;
}

async function daemonRss(): Promise<void> {
  const { home, env } = benchHome('muster-bench-search-rss-');
  writeManyClaudeTranscripts(join(home, '.claude'), SESSIONS);
  // Indexed in-process first: a first scan of 10,000 files would outlast the kit's start timeout.
  const store = openSqliteStore({ path: join(home, 'muster.db') });
  await createClaudeSource({ home: join(home, '.claude'), index: store.transcriptIndex }).list();
  store.close(); // flushes the index's last batch
  const reopened = openSqliteStore({ path: join(home, 'muster.db') });
  const docs = await reopened.search.stats();
  reopened.close();
  const d = await startDaemon(env);
  try {
    await api(d, '/api/sessions');
    const ms: number[] = [];
    for (const q of QUERIES) ms.push((await api(d, `/api/search?q=${encodeURIComponent(q)}`)).ms);
    console.log(`daemon over ${SESSIONS} sessions (${docs.messages} indexed messages): RSS ${rssMb(d.pid).toFixed(0)} MB after 20 searches over HTTP (target <= 300 MB); HTTP p95 ${percentile(ms, 0.95).toFixed(1)} ms`);
  } finally {
    await d.stop();
  }
}

async function main(): Promise<number> {
  const tmp = mkdtempSync(join(tmpdir(), 'muster-bench-search-'));
  try {
    const home = join(tmp, 'claude');
    const t0 = performance.now();
    const corpus = generateClaudeCorpus({ home, totalBytes: TOTAL_MB * MiB, files: FILES });
    console.log(`claude corpus: ${corpus.files.length} files, ${(corpus.bytes / MiB).toFixed(0)} MiB, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // Warm-up (JIT) on a small corpus, both ways.
    const warm = join(tmp, 'warm');
    generateClaudeCorpus({ home: warm, totalBytes: 8 * MiB, files: 20 });
    await coldIndex(warm, join(tmp, 'warm-a.db'), false);
    await coldIndex(warm, join(tmp, 'warm-b.db'), true);

    // Rounds alternate discovery alone (a) and with search (b): a b a b … a. Each b is set against the mean of
    // the a on either side, so drift in a shared machine's load hits both alike; the median ratio is the figure.
    const mbps = (ms: number): string => `${(corpus.bytes / MiB / (ms / 1000)).toFixed(0)} MB/s`;
    const ratios = (as: number[], bs: number[]): number[] => bs.map((b, i) => b / (((as[i] as number) + (as[i + 1] as number)) / 2));
    const as: Awaited<ReturnType<typeof coldIndex>>[] = [await coldIndex(home, join(tmp, 'a0.db'), false)];
    const bs: Awaited<ReturnType<typeof coldIndex>>[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      bs.push(await coldIndex(home, join(tmp, `b${r}.db`), true));
      as.push(await coldIndex(home, join(tmp, `a${r + 1}.db`), false));
    }
    const a1 = as[0] as (typeof as)[number];
    const b = bs.at(-1) as (typeof bs)[number];
    const inProcess = ratios(as.map((x) => x.ms), bs.map((x) => x.ms));
    console.log(`cold index, discovery alone: ${as.map((x) => x.ms.toFixed(0)).join(' / ')} ms (median ${mbps(median(as.map((x) => x.ms)))}), ${a1.sessions} sessions`);
    console.log(`cold index, with search:     ${bs.map((x) => x.ms.toFixed(0)).join(' / ')} ms (median ${mbps(median(bs.map((x) => x.ms)))})  ratios ${inProcess.map((x) => x.toFixed(2)).join(' ')}, median ${median(inProcess).toFixed(2)} (target <= 1.50)`);
    if (existsSync(WORKER_ENTRY)) {
      await pooledColdIndex(warm, join(tmp, 'warm-pa.db'), true);
      const pas = [await pooledColdIndex(home, join(tmp, 'pa0.db'), false)];
      const pbs: Awaited<ReturnType<typeof pooledColdIndex>>[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        pbs.push(await pooledColdIndex(home, join(tmp, `pb${r}.db`), true));
        pas.push(await pooledColdIndex(home, join(tmp, `pa${r + 1}.db`), false));
      }
      const pooled = ratios(pas.map((x) => x.ms), pbs.map((x) => x.ms));
      console.log(`daemon's cold path (worker threads), discovery alone: ${pas.map((x) => x.ms.toFixed(0)).join(' / ')} ms, longest stall of the daemon thread ${Math.max(...pas.map((x) => x.stallMs)).toFixed(0)} ms`);
      console.log(`daemon's cold path (worker threads), with search:     ${pbs.map((x) => x.ms.toFixed(0)).join(' / ')} ms  ratios ${pooled.map((x) => x.toFixed(2)).join(' ')}, median ${median(pooled).toFixed(2)}, longest stall ${Math.max(...pbs.map((x) => x.stallMs)).toFixed(0)} ms, ${pbs[0]?.sessions} sessions`);
    } else console.log(`daemon's cold path: skipped, ${WORKER_ENTRY} is not built (npm run build)`);
    const extra = b.bytes - a1.bytes;
    console.log(`store: ${(a1.bytes / MiB).toFixed(1)} MiB without search, ${(b.bytes / MiB).toFixed(1)} MiB with; search index ${(extra / MiB).toFixed(1)} MiB = ${((100 * extra) / corpus.bytes).toFixed(1)} % of the transcripts (target <= 35 %)`);

    const store = openSqliteStore({ path: join(tmp, `b${ROUNDS - 1}.db`) });
    const stats = await store.search.stats();
    const times = await queryLatency(store);
    store.close();
    const fig = (xs: number[]): string => `p50 ${percentile(xs, 0.5).toFixed(1)} ms, p95 ${percentile(xs, 0.95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
    console.log(`queries: ${QUERIES.length} x 5 rounds over ${stats.messages} messages in ${stats.files} files: ${fig(times.all)} (target p95 <= 50 ms)`);
    console.log(`  the 10 of the filler's most frequent words (each in thousands of messages): ${fig(times.common)}; the 10 rarer: ${fig(times.rare)}`);
    if (process.env.BENCH_SKIP_DAEMON !== '1') await daemonFirstStart(home, corpus.files.length, stats.messages);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (process.env.BENCH_SKIP_DAEMON !== '1') await daemonRss();
  return 0;
}

process.exitCode = await main();
