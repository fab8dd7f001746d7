/**
 * The worker side of the cold indexer: folds each batch it is sent with the registered fold and posts
 * the results back. A worker entry (built as its own file) calls `runIndexWorker` with its folds.
 */
import { parentPort } from 'node:worker_threads';
import type { BatchReply, BatchRequest, FileResult, FileTask, FoldRegistry } from './types.ts';
import { INDEX_THREAD_NAME, nameThisThread } from './thread-name.ts';

/** Runs every task of a batch; a fold that throws despite its contract becomes a failed result. */
export function foldBatch(folds: FoldRegistry, kind: string, tasks: FileTask[]): FileResult[] {
  const fold = Object.hasOwn(folds, kind) ? folds[kind] : undefined;
  return tasks.map((t): FileResult => {
    if (!fold) return { ok: false, path: t.path, code: 'EINVAL', message: `no fold for ${kind}`, bytes: t.bytes };
    try {
      return fold(t);
    } catch (e) {
      return { ok: false, path: t.path, code: 'EFOLD', message: (e as Error).message, bytes: t.bytes };
    }
  });
}

export function runIndexWorker(folds: FoldRegistry): void {
  const port = parentPort;
  if (!port) throw new Error('runIndexWorker must run in a worker thread');
  nameThisThread(INDEX_THREAD_NAME);
  port.on('message', (m: BatchRequest) => {
    const reply: BatchReply = { id: m.id, results: foldBatch(folds, m.kind, m.tasks) };
    port.postMessage(reply);
  });
}
