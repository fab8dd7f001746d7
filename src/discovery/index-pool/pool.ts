/**
 * The cold indexer: transcript files read by the harnesses' folds on every core — in worker threads,
 * one per core but one, and in this thread too — with the results handed back to this thread in
 * batches, where the caller writes them to the store, so every store write stays in one thread and a
 * batch is one transaction. This thread reads a file per turn of the event loop, so the daemon keeps
 * answering between two, and leaves files larger than a batch to the workers (one file is the longest
 * it holds the thread). Its own results cross no thread (no copy), and one isolate fewer warms up V8's
 * compiler. Workers start on the first read and end once nothing is queued: an idle daemon holds no
 * threads (while they read, they keep the process alive, as any pending read would). When a worker
 * cannot start or dies, what it held and everything after is read in this thread instead.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BatchReply, BatchRequest, ColdIndexer, FileResult, FileTask, FoldRegistry } from './types.ts';
import { foldBatch } from './worker.ts';

export interface ColdIndexerOptions {
  /** The same folds the workers run, for reading in this thread. */
  folds: FoldRegistry;
  /** Starts one worker thread. Default: none (everything is read in this thread). */
  spawn?: () => Worker;
  /** Worker threads. Default: one per core but one (at least one). */
  workers?: number;
  /**
   * Whether this thread reads files too while the workers do (files up to `batchBytes`). Default: true
   * when the machine has two cores or more. Measured on 2 cores, a first start over generated
   * transcripts (`muster up` to a complete `muster ls`; medians of six runs alternating with the build
   * before): Claude, 546 MiB, two workers 1,899 ms (2,595 ms of CPU when the index ends), one worker and
   * this thread 1,832 ms (2,430 ms); Codex, 529 MiB, 2,158 ms (3,065) → 2,035 ms (2,870).
   */
  readHereToo?: boolean;
  /** Bytes per batch. Default: 8 MiB (a batch holds at most 64 files). */
  batchBytes?: number;
  /** Wait between batches, ms: a diagnostic knob that makes progress watchable. Default: 0. */
  paceMs?: number;
  log?(line: string): void;
}

interface Job {
  kind: string;
  batches: FileTask[][];
  next: number;
  /** Batches a failed worker held, read again first. */
  retry: FileTask[][];
  outstanding: number;
  onBatch(results: FileResult[]): void;
  done(): void;
}

interface Slot {
  worker: Worker;
  inFlight: Map<number, { job: Job; tasks: FileTask[] }>;
  resting: boolean;
}

const MAX_FILES_PER_BATCH = 64;
/** Batches a worker holds at once, so it never waits for this thread between two. */
const DEPTH = 2;

/** Splits tasks into batches of about `bytes` bytes, keeping their order. */
export function toBatches(tasks: FileTask[], bytes: number): FileTask[][] {
  const out: FileTask[][] = [];
  let cur: FileTask[] = [];
  let size = 0;
  for (const t of tasks) {
    if (cur.length > 0 && (size + t.bytes > bytes || cur.length >= MAX_FILES_PER_BATCH)) {
      out.push(cur);
      cur = [];
      size = 0;
    }
    cur.push(t);
    size += t.bytes;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

export function createColdIndexer(options: ColdIndexerOptions): ColdIndexer {
  const log = options.log ?? (() => {});
  const paceMs = options.paceMs ?? 0;
  const cores = availableParallelism();
  const wanted = options.spawn ? Math.max(0, options.workers ?? Math.max(1, cores - 1)) : 0;
  const batchBytes = options.batchBytes ?? 8 * 1024 * 1024;
  const hereToo = wanted > 0 && (options.readHereToo ?? cores >= 2);
  const queue: Job[] = [];
  let slots: Slot[] = [];
  let inline = wanted === 0;
  let inlineBusy = false;
  let closed = false;
  let ids = 0;

  /** The next batch to read; `small`: skip a batch holding a file larger than a batch (left to the workers). */
  const take = (small = false): { job: Job; tasks: FileTask[] } | null => {
    for (const job of queue) {
      const again = job.retry.shift();
      if (again) return { job, tasks: again };
      const tasks = job.batches[job.next];
      if (tasks && small && tasks.some((t) => t.bytes > batchBytes)) {
        const i = job.batches.findIndex((b, k) => k > job.next && b.every((t) => t.bytes <= batchBytes));
        if (i === -1) continue;
        // Swap it forward: the workers still take the large one next.
        const [fits] = job.batches.splice(i, 1);
        job.batches.splice(job.next, 0, fits as FileTask[]);
      }
      const next = job.batches[job.next];
      if (next) {
        job.next++;
        return { job, tasks: next };
      }
    }
    return null;
  };

  const deliver = (job: Job, results: FileResult[]): void => {
    try {
      job.onBatch(results);
    } catch (e) {
      log(`[muster] cold index: a batch's results could not be applied: ${(e as Error).message}`);
    }
    job.outstanding--;
    if (job.outstanding === 0 && job.next === job.batches.length) finish(job);
  };

  const finish = (job: Job): void => {
    const i = queue.indexOf(job);
    if (i >= 0) queue.splice(i, 1);
    job.done();
    if (queue.length === 0) setImmediate(stopIdleWorkers);
  };

  const stopIdleWorkers = (): void => {
    if (queue.length > 0) return;
    const idle = slots;
    slots = [];
    for (const s of idle) void s.worker.terminate();
  };

  /** Reads the next batch in this thread, a file per turn of the event loop (requests are answered between two). */
  const runInline = (): void => {
    if (inlineBusy || closed) return;
    const next = take(!inline);
    if (!next) return;
    inlineBusy = true;
    const results: FileResult[] = [];
    const step = (): void => {
      if (closed) return;
      results.push(...foldBatch(options.folds, next.job.kind, next.tasks.slice(results.length, results.length + 1)));
      if (results.length < next.tasks.length) return void setImmediate(step);
      inlineBusy = false;
      deliver(next.job, results);
      runInline();
    };
    if (paceMs > 0) setTimeout(step, paceMs);
    else setImmediate(step);
  };

  /** A worker that failed: what it held is read here, and so is everything after. */
  const fallBack = (slot: Slot, why: string): void => {
    if (closed || !slots.includes(slot)) return;
    log(`[muster] cold index: a worker thread failed (${why}); reading in the daemon's thread`);
    inline = true;
    slots = slots.filter((s) => s !== slot);
    void slot.worker.terminate();
    for (const { job, tasks } of slot.inFlight.values()) job.retry.push(tasks);
    slot.inFlight.clear();
    pump();
  };

  const feed = (slot: Slot): void => {
    while (!closed && !slot.resting && slot.inFlight.size < (paceMs > 0 ? 1 : DEPTH)) {
      const next = take();
      if (!next) return;
      const id = ++ids;
      slot.inFlight.set(id, next);
      const msg: BatchRequest = { id, kind: next.job.kind, tasks: next.tasks };
      slot.worker.postMessage(msg);
    }
  };

  const startWorker = (spawn: () => Worker): Slot | null => {
    let worker: Worker;
    try {
      worker = spawn();
    } catch (e) {
      log(`[muster] cold index: cannot start a worker thread: ${(e as Error).message}`);
      return null;
    }
    const slot: Slot = { worker, inFlight: new Map(), resting: false };
    worker.on('message', (m: BatchReply) => {
      const held = slot.inFlight.get(m.id);
      if (!held) return;
      slot.inFlight.delete(m.id);
      deliver(held.job, m.results);
      if (paceMs > 0) {
        slot.resting = true;
        setTimeout(() => { slot.resting = false; feed(slot); }, paceMs);
      } else feed(slot);
    });
    worker.on('error', (e) => fallBack(slot, e.message));
    worker.on('exit', (code) => {
      if (slot.inFlight.size > 0) fallBack(slot, `exited with code ${code}`);
    });
    return slot;
  };

  const pump = (): void => {
    if (closed) return;
    if (inline) return runInline();
    if (slots.length === 0 && options.spawn) {
      for (let i = 0; i < wanted; i++) {
        const s = startWorker(options.spawn);
        if (s) slots.push(s);
      }
      if (slots.length === 0) {
        inline = true;
        return runInline();
      }
    }
    for (const s of slots) feed(s);
    if (hereToo) runInline();
  };

  return {
    read(kind, tasks, onBatch) {
      if (tasks.length === 0 || closed) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const batches = toBatches(tasks, batchBytes);
        queue.push({ kind, batches, next: 0, retry: [], outstanding: batches.length, onBatch, done: resolve });
        pump();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const all = slots;
      slots = [];
      await Promise.allSettled(all.map((s) => s.worker.terminate()));
      for (const job of queue.splice(0)) job.done();
    },
  };
}
