/**
 * Names the calling thread, so `top -H`, `ps -L` and the benches tell Muster's worker threads (the cold
 * index's, the search thread) from V8's and libuv's own. Linux only (/proc/thread-self/comm, which keeps
 * 15 bytes: the names are ASCII, cut to 15 characters); elsewhere, or when the write is refused, the
 * thread keeps its name.
 */
import { writeFileSync } from 'node:fs';

export const INDEX_THREAD_NAME = 'muster-index';
export const SEARCH_THREAD_NAME = 'muster-search';

export function nameThisThread(name: string, write: (path: string, data: string) => void = writeFileSync): void {
  try {
    write('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // not Linux, or refused: a name is only a label
  }
}
