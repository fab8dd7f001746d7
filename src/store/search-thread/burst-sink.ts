/**
 * Where the search index's writes go: the search thread while a burst lasts, this thread otherwise.
 * A first start over a long history brings hundreds of thousands of messages, and FTS5 then runs on a
 * thread of its own beside the reading and the store's writes (client.ts). A daemon at rest brings a
 * few messages now and then; a second V8 isolate kept for them costs its memory and its own garbage
 * collections (the memory reducer's, seconds after each burst, in an idle daemon's first minute), so
 * they are written on the store's connection, on the next turn of the event loop.
 *
 * The sink takes each put's ops as they come (eager) and gathers them; once `minRows` messages are
 * gathered, or gathered and still to come from a first start's drain (`later`; a source reading many
 * transcripts in one go gets there within a few files), a thread starts,
 * takes what was gathered and every write after it while it lives (so they stay in order), and is closed
 * once everything it took is written and nothing came for `idleMs`. After a thread failed, or a write
 * here failed, nothing more is written (positions would no longer match); the store's next open sees
 * the offsets differ and reads those transcripts again (search-db.ts).
 */
import { rowsOf } from '../search.ts';
import type { SearchOp } from '../search.ts';
import type { SearchSink } from '../transcript-index.ts';
import { createSearchThreadSink } from './client.ts';
import type { SearchThreadOptions, SearchThreadSink } from './client.ts';

/** Messages gathered that start the thread (a first start's chunks bring 8,192). */
export const DEFAULT_THREAD_MIN_ROWS = 2048;
/** The thread closes after this long without a write, once it has written everything. */
export const DEFAULT_THREAD_IDLE_MS = 3000;

export interface BurstSinkOptions extends SearchThreadOptions {
  /** Writes ops on the store's connection, in a transaction of their own. */
  inline(ops: readonly SearchOp[]): void;
  minRows?: number;
  idleMs?: number;
}

export interface BurstSink extends SearchSink {
  /** Resolves once what was taken before the call is written, or after `maxMs`. */
  settle(maxMs: number): Promise<void>;
  close(): void;
}

export function createBurstSearchSink(o: BurstSinkOptions): BurstSink {
  const minRows = o.minRows ?? DEFAULT_THREAD_MIN_ROWS;
  const idleMs = o.idleMs ?? DEFAULT_THREAD_IDLE_MS;
  const log = o.log ?? (() => {});
  let thread: SearchThreadSink | null = null;
  /** Ops taken and not written yet, while no thread lives. */
  let gathered: SearchOp[] = [];
  let gatheredRows = 0;
  let flushScheduled = false;
  let failed = false;
  let closed = false;
  let idleTimer: NodeJS.Timeout | null = null;

  const writeGathered = (): void => {
    flushScheduled = false;
    if (gathered.length === 0) return;
    const ops = gathered;
    gathered = [];
    gatheredRows = 0;
    if (failed) return;
    try {
      o.inline(ops);
    } catch (e) {
      failed = true;
      log(`[muster] the search index could not be written (${(e as Error).message}); what it missed is read again at the next start`);
    }
  };
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
    eager: true,
    write(ops, later = 0) {
      if (failed || closed || ops.length === 0) return;
      if (thread?.failed()) failed = true;
      if (failed) return;
      if (thread) {
        thread.write(ops);
        armRetire();
        return;
      }
      for (const op of ops) gathered.push(op);
      gatheredRows += rowsOf(ops);
      // A drain's chunks bring a burst a few hundred messages at a time (2,048 rows, usage records
      // included, while requests come): what is still to come counts, or each chunk's share would be
      // written here, on the daemon's thread, one after another.
      if (gatheredRows + later >= minRows) {
        thread = createSearchThreadSink(o);
        const burst = gathered;
        gathered = [];
        gatheredRows = 0;
        thread.write(burst);
        armRetire();
      } else if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(writeGathered);
      }
    },
    waiting: () => gatheredRows + (thread?.waiting() ?? 0),
    flush() {
      writeGathered();
      thread?.flush();
    },
    settle(maxMs) {
      writeGathered();
      return thread?.settle(maxMs) ?? Promise.resolve();
    },
    close() {
      if (closed) return;
      writeGathered();
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      thread?.close();
      thread = null;
    },
  };
}
