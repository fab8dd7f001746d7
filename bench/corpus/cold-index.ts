/**
 * The cold-index protocol shared by the Claude and Codex benchmarks: generate the corpus once, then
 * time the baseline (JSON.parse every line), the source's first list() with a fresh in-memory index,
 * the same with a fresh SQLite index (the store the daemon really uses), and the baseline again; the
 * two baselines bracket the source runs so load drift on a shared machine shows up instead of hiding.
 * A fourth run uses batched-index.ts (all index writes in one transaction) to show the expected gain.
 * Figures are throughput ratios (baseline time / source time): >= 1.0 means at least as fast as parsing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionSource, TranscriptIndex } from '../../src/discovery/contract.ts';
import { createMemoryTranscriptIndex } from '../../src/discovery/contract.ts';
import { openSqliteStore } from '../../src/store/index.ts';
import { createDeferredSqliteIndex } from './batched-index.ts';
import { parseEveryLine } from './json-baseline.ts';
import { describeMix } from './mix.ts';
import type { GeneratedCorpus } from './mix.ts';

export interface ColdIndexBench {
  label: string;
  /** Writes the corpus under `home` (a fresh temp dir). */
  generate(home: string, totalBytes: number, files: number): GeneratedCorpus;
  /** A source reading `home` through `index`. */
  source(home: string, index: TranscriptIndex): SessionSource;
}

const MiB = 1024 * 1024;
const mbps = (bytes: number, ms: number): string => `${(bytes / MiB / (ms / 1000)).toFixed(0)} MB/s`;

async function timeList(source: SessionSource): Promise<{ ms: number; sessions: number }> {
  const t0 = performance.now();
  const sessions = await source.list();
  return { ms: performance.now() - t0, sessions: sessions.length };
}

/** Runs the protocol; returns the process exit code (1 when the source did not see every file). */
export async function runColdIndex(bench: ColdIndexBench): Promise<number> {
  const totalMb = Number(process.env.BENCH_CORPUS_MB ?? 1024);
  const files = Number(process.env.BENCH_CORPUS_FILES ?? 2000);
  const tmp = mkdtempSync(join(tmpdir(), `muster-bench-${bench.label}-`));
  const cleanup = (): void => rmSync(tmp, { recursive: true, force: true });
  process.on('SIGINT', () => { cleanup(); process.exit(130); });
  try {
    const home = join(tmp, 'home');
    const t0 = performance.now();
    const corpus = bench.generate(home, totalMb * MiB, files);
    const paths = corpus.files.map((f) => f.path);
    console.log(`${bench.label} corpus: ${corpus.files.length} files, ${(corpus.bytes / MiB).toFixed(0)} MiB, ${corpus.lines} lines, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log(`  bytes by line class: ${describeMix(corpus.mix)} (ignored = skipped unparsed by the source's first-bytes filter)`);

    // Warm-up on a small separate corpus, so the first timed run does not also pay for JIT compilation.
    const warm = bench.generate(join(tmp, 'warm'), 8 * MiB, 20);
    parseEveryLine(warm.files.map((f) => f.path));
    await bench.source(join(tmp, 'warm'), createMemoryTranscriptIndex()).list();

    const before = parseEveryLine(paths);
    const mem = await timeList(bench.source(home, createMemoryTranscriptIndex()));
    const store = openSqliteStore({ path: join(tmp, 'muster.db') });
    let sql: { ms: number; sessions: number };
    try {
      sql = await timeList(bench.source(home, store.transcriptIndex));
    } finally {
      store.close();
    }
    // The proposed fix (batched-index.ts): same SQLite file and durability, one transaction per list().
    const deferred = createDeferredSqliteIndex(join(tmp, 'muster-batched.db'));
    let batched: { ms: number; sessions: number };
    try {
      batched = await timeList(bench.source(home, deferred.index));
      batched.ms += deferred.flush();
    } finally {
      deferred.close();
    }
    // The memory run again, last: how much of the spread between the runs above is order and load.
    const memAgain = await timeList(bench.source(home, createMemoryTranscriptIndex()));
    const after = parseEveryLine(paths);
    const base = (before.ms + after.ms) / 2;

    console.log(`  baseline JSON.parse every line: ${before.ms.toFixed(0)} ms before, ${after.ms.toFixed(0)} ms after (${mbps(corpus.bytes, base)})`);
    console.log(`  first list(), memory index:     ${mem.ms.toFixed(0)} ms (${mbps(corpus.bytes, mem.ms)}), ${mem.sessions} sessions  ratio ${(base / mem.ms).toFixed(2)} (target >= 1.0)`);
    console.log(`  first list(), SQLite index:     ${sql.ms.toFixed(0)} ms (${mbps(corpus.bytes, sql.ms)}), ${sql.sessions} sessions  ratio ${(base / sql.ms).toFixed(2)} (target >= 1.0)`);
    console.log(`  first list(), SQLite batched:   ${batched.ms.toFixed(0)} ms (${mbps(corpus.bytes, batched.ms)})  ratio ${(base / batched.ms).toFixed(2)} (prototype: all puts in one transaction)`);
    console.log(`  first list(), memory (repeat):  ${memAgain.ms.toFixed(0)} ms  ratio ${(base / memAgain.ms).toFixed(2)} (same as the first run, measured last)`);
    if (mem.sessions !== corpus.files.length || sql.sessions !== corpus.files.length || batched.sessions !== corpus.files.length) {
      console.log(`  ERROR: expected ${corpus.files.length} sessions; the figures above did not read the whole corpus`);
      return 1;
    }
    return 0;
  } finally {
    cleanup();
  }
}
