/**
 * The cold indexer: transcript files read by the harnesses' folds in worker threads (one per core by
 * default), results handed back to this thread in batches — where the caller writes them to the store,
 * so every store write stays in one thread and a batch is one transaction. Workers start on the first
 * read and end once nothing is queued: an idle daemon holds no threads (while they read, they keep
 * the process alive, as any pending read would). When a worker cannot start or
 * dies, what it held and everything after is read in this thread instead, a batch per turn of the event
 * loop, so the daemon keeps answering.
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
  /** Worker threads. Default: availableParallelism() (one per core). */
  workers?: number;
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
  const wanted = options.spawn ? Math.max(0, options.workers ?? availableParallelism()) : 0;
  const queue: Job[] = [];
  let slots: Slot[] = [];
  let inline = wanted === 0;
  let inlineBusy = false;
  let closed = false;
  let ids = 0;

  const take = (): { job: Job; tasks: FileTask[] } | null => {
    for (const job of queue) {
      const again = job.retry.shift();
      if (again) return { job, tasks: again };
      const tasks = job.batches[job.next];
      if (tasks) {
        job.next++;
        return { job, tasks };
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

  const runInline = (): void => {
    if (inlineBusy || closed) return;
    const next = take();
    if (!next) return;
    inlineBusy = true;
    const step = (): void => {
      inlineBusy = false;
      deliver(next.job, foldBatch(options.folds, next.job.kind, next.tasks));
      runInline();
    };
    // A batch per turn of the event loop: requests are answered between two.
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
  };

  return {
    read(kind, tasks, onBatch) {
      if (tasks.length === 0 || closed) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const batches = toBatches(tasks, options.batchBytes ?? 8 * 1024 * 1024);
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
