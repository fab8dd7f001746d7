/**
 * The store's side of the search thread, started with the first batch: the transcript index's search
 * ops go to the thread as they are put, or as they are committed here after a hold (the thread writes
 * FTS5 while this thread writes usage and entries), and the shared signal says what is written.
 * `flush` and `close` wait for the thread (Atomics.wait: the store's close is synchronous); a thread
 * that failed is logged and left behind: what it did not write is read again at the store's next open
 * (search-db.ts).
 */
import type { Worker } from 'node:worker_threads';
import { rowsOf } from '../search.ts';
import type { SearchOp } from '../search.ts';
import type { SearchSink } from '../transcript-index.ts';
import type { SearchThreadInit, SearchThreadMessage } from './protocol.ts';
import { SIGNAL_STATE, SIGNAL_WRITTEN, STATE_RUNNING } from './protocol.ts';

export type SearchThreadSpawn = (init: SearchThreadInit) => Worker;

export interface SearchThreadOptions {
  path: string;
  spawn: SearchThreadSpawn;
  /** Whether tool results' text is indexed; read at each batch. */
  toolOutput(): boolean;
  log?(line: string): void;
  /** Longest wait of a flush or close, ms. Default: 120,000. */
  waitMs?: number;
}

export interface SearchThreadSink extends SearchSink {
  /** Resolves once what was taken before the call is written, the thread stopped, or `maxMs` passed. */
  settle(maxMs: number): Promise<void>;
  /** True once the thread failed: what it took and did not write is lost until the next open repairs it. */
  failed(): boolean;
  close(): void;
}

export function createSearchThreadSink(o: SearchThreadOptions): SearchThreadSink {
  const shared = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  const signal = new Int32Array(shared);
  Atomics.store(signal, SIGNAL_WRITTEN, -1);
  const log = o.log ?? (() => {});
  const waitMs = o.waitMs ?? 120_000;
  let seq = -1;
  let failed = false;
  let closed = false;
  /** Batches sent and not known written: [seq, messages]. */
  const inflight: Array<[number, number]> = [];
  const fail = (why: string): void => {
    if (failed) return;
    failed = true;
    log(`[muster] the search index's thread stopped (${why}); what it did not write is read again at the next start`);
  };
  /** Started with the first batch: a store that writes nothing (a warm start, nothing new) has no thread. */
  let worker: Worker | null = null;
  const start = (): Worker => {
    const w = o.spawn({ path: o.path, signal: shared });
    // The store's close waits for it; it never keeps the process alive by itself.
    w.unref();
    w.on('message', (m: { error?: string }) => {
      if (m.error !== undefined) fail(m.error);
    });
    w.on('error', (e) => fail(e.message));
    w.on('exit', (code) => {
      if (!closed) fail(`exit ${code}`);
    });
    return w;
  };
  const running = (): boolean => !failed && Atomics.load(signal, SIGNAL_STATE) === STATE_RUNNING;
  /** Waits (blocking this thread) until `done()` or the thread stops; false after waitMs. */
  const waitFor = (done: () => boolean): boolean => {
    const deadline = performance.now() + waitMs;
    while (!done()) {
      if (!running()) return false;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(signal, SIGNAL_WRITTEN, Atomics.load(signal, SIGNAL_WRITTEN), Math.min(left, 1000));
    }
    return true;
  };
  const send = (m: SearchThreadMessage): void => (worker ??= start()).postMessage(m);
  const flush = (): void => {
    if (failed || closed) return;
    const target = seq;
    if (!waitFor(() => Atomics.load(signal, SIGNAL_WRITTEN) >= target) && running()) fail(`not written within ${waitMs} ms`);
  };
  return {
    eager: true,
    write(ops: readonly SearchOp[]) {
      if (failed || closed || ops.length === 0) return;
      seq++;
      const rows = rowsOf(ops);
      inflight.push([seq, rows]);
      send({ op: 'ops', seq, ops: [...ops], rows, withOutput: o.toolOutput() });
    },
    waiting() {
      const written = Atomics.load(signal, SIGNAL_WRITTEN);
      while (inflight.length > 0 && (inflight[0] as [number, number])[0] <= written) inflight.shift();
      return failed ? 0 : inflight.reduce((n, [, rows]) => n + rows, 0);
    },
    async settle(maxMs) {
      const target = seq;
      const deadline = performance.now() + maxMs;
      while (running() && !closed && Atomics.load(signal, SIGNAL_WRITTEN) < target && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    flush,
    failed: () => failed,
    close() {
      if (closed) return;
      flush();
      closed = true;
      if (!worker) return;
      if (failed) {
        void worker.terminate();
        return;
      }
      send({ op: 'close' });
      if (!waitFor(() => Atomics.load(signal, SIGNAL_STATE) !== STATE_RUNNING)) void worker.terminate();
    },
  };
}
