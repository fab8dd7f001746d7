/**
 * The daemon's cold indexer: a first start's unread transcripts read on every core, in worker threads
 * (one per core but one) and in the daemon's thread (pool.ts); the workers run the worker entry built
 * beside the bundle (dist/index-worker.js; src/harnesses/index-worker.ts when running from source).
 * Two knobs, for diagnosis and for tests that watch progress: MUSTER_INDEX_COLD_BYTES (least unread
 * bytes for a cold index; default 32 MiB) and MUSTER_INDEX_PACE_MS (a wait between batches; default 0).
 */
import { createColdIndexer, spawnIndexWorker } from '../discovery/index-pool/index.ts';
import type { ColdIndexer, ColdIndexing } from '../discovery/index-pool/index.ts';
import { INDEX_FOLDS } from '../harnesses/index-folds.ts';
import { workerEntry } from './worker-entry.ts';

/** The cold index's worker entry file, or null when it is not there (then everything is read in the daemon's thread). */
export function indexWorkerEntry(moduleUrl: string = import.meta.url): string | null {
  return workerEntry(moduleUrl, 'index-worker.js', ['harnesses', 'index-worker.ts']);
}

/**
 * How long after a cold index's listing is complete its files are read again for search's messages: the
 * board's fetch and a `muster ls` (a fresh process, ~170 ms here) that waited for that listing come
 * first, and the store's writes after the hold begin (create-daemon.ts, INDEX_HOLD_LINGER_MS).
 */
const SEARCH_AFTER_MS = 500;

function numberFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = env[name]?.trim();
  if (!v) return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function createDaemonColdIndexing(env: NodeJS.ProcessEnv, log: (line: string) => void): ColdIndexing & { indexer: ColdIndexer } {
  const entry = indexWorkerEntry();
  const indexer = createColdIndexer({
    folds: INDEX_FOLDS,
    spawn: entry ? () => spawnIndexWorker(entry) : undefined,
    paceMs: numberFrom(env, 'MUSTER_INDEX_PACE_MS'),
    log,
  });
  return { indexer, minBytes: numberFrom(env, 'MUSTER_INDEX_COLD_BYTES'), searchAfterMs: SEARCH_AFTER_MS };
}
