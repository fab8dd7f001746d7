/**
 * Where the search index's writes go: the search thread while a burst lasts, this thread otherwise.
 * A first start over a long history brings hundreds of thousands of messages, and FTS5 then runs on a
 * thread of its own beside the store's writes (client.ts). A daemon at rest brings a few messages now
 * and then; a second V8 isolate kept for them costs its memory and its own garbage collections (the
 * memory reducer's, seconds after each burst, in an idle daemon's first minute), so they are written in
 * the transcript index's own transactions, as without a thread. A thread starts when a batch brings at
 * least `minRows` messages, takes every write while it lives (so they stay in order), and is closed once
 * everything it took is written and nothing came for `idleMs`. After a thread failed, nothing more is
 * written (positions would no longer match); the store's next open repairs what is missing.
 */
import { rowsOf } from '../search.ts';
import type { SearchWriter } from '../search.ts';
import type { SearchSink } from '../transcript-index.ts';
import { createSearchThreadSink } from './client.ts';
import type { SearchThreadOptions, SearchThreadSink } from './client.ts';

/** A batch bringing this many messages starts the thread (a first start's chunks bring 8,192). */
export const DEFAULT_THREAD_MIN_ROWS = 2048;
/** The thread closes after this long without a write, once it has written everything. */
export const DEFAULT_THREAD_IDLE_MS = 3000;

export interface BurstSinkOptions extends SearchThreadOptions {
  /** Writes ops on the store's connection (called inside the transcript index's transaction). */
  inline: SearchWriter;
  minRows?: number;
  idleMs?: number;
}

export interface BurstSink extends SearchSink {
  /** Resolves once what the thread took before the call is written (at once without a thread), or after `maxMs`. */
  settle(maxMs: number): Promise<void>;
  close(): void;
}

export function createBurstSearchSink(o: BurstSinkOptions): BurstSink {
  const minRows = o.minRows ?? DEFAULT_THREAD_MIN_ROWS;
  const idleMs = o.idleMs ?? DEFAULT_THREAD_IDLE_MS;
  let thread: SearchThreadSink | null = null;
  let failed = false;
  let closed = false;
  let idleTimer: NodeJS.Timeout | null = null;

  /** Closes the thread once it has written everything; while it has not, looks again later. */
  const retire = (): void => {
    idleTimer = null;
    const t = thread;
    if (!t || closed) return;
    if (t.failed()) failed = true;
    else if (t.waiting() > 0) return armRetire();
    thread = null;
    t.close(); // everything is written: the thread only closes its connection
  };
  const armRetire = (): void => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(retire, idleMs);
    idleTimer.unref();
  };

  return {
    get eager() {
      return thread !== null;
    },
    write(ops) {
      if (failed || closed || ops.length === 0) return;
      if (thread?.failed()) failed = true;
      if (failed) return;
      if (!thread && rowsOf(ops) < minRows) {
        o.inline.apply(ops, o.toolOutput());
        return;
      }
      thread ??= createSearchThreadSink(o);
      thread.write(ops);
      armRetire();
    },
    waiting: () => thread?.waiting() ?? 0,
    flush: () => thread?.flush(),
    settle: (maxMs) => thread?.settle(maxMs) ?? Promise.resolve(),
    close() {
      if (closed) return;
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      thread?.close();
      thread = null;
    },
  };
}
