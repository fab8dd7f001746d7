/**
 * The daemon's search thread: the store's search index written from a worker thread of its own
 * (dist/search-writer.js; src/store/search-thread/worker.ts when running from source).
 */
import { spawnIndexWorker } from '../discovery/index-pool/index.ts';
import type { SearchThreadSpawn } from '../store/index.ts';
import { workerEntry } from './worker-entry.ts';

/**
 * The search thread's start, or undefined when its entry is not there (then the search index is
 * written in the daemon's thread, in the transcript index's transactions).
 */
export function daemonSearchThread(moduleUrl: string = import.meta.url): SearchThreadSpawn | undefined {
  const entry = workerEntry(moduleUrl, 'search-writer.js', ['store', 'search-thread', 'worker.ts']);
  return entry ? (init) => spawnIndexWorker(entry, init) : undefined;
}
