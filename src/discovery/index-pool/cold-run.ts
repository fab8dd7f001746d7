/**
 * One source's cold index: which of its transcript files the index does not hold yet, read through
 * the cold indexer, and each batch's results put into the index, which holds its writes until the run
 * ends. A file some other read brought up to date meanwhile (a watch event's targeted read) keeps what
 * that read wrote.
 */
import type { Harness } from '../../core/session.ts';
import type { IndexProgress, TranscriptIndex, TranscriptIndexEntry } from '../contract.ts';
import { isNotRegularFile } from '../regular-file/index.ts';
import type { ColdIndexer, FileResult, FileTask } from './types.ts';

/** What a source builds with: the indexer, and the least unread bytes worth it. */
export interface ColdIndexing {
  indexer: ColdIndexer;
  /** Below this many unread bytes the source reads in its own list() as before. Default: 32 MiB. */
  minBytes?: number;
}

export const DEFAULT_COLD_MIN_BYTES = 32 * 1024 * 1024;

/** A transcript file as listed and stat'ed. */
export interface ListedFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface ColdRunOptions {
  harness: Harness;
  /** The fold's name in the worker's registry. */
  kind: string;
  index: TranscriptIndex;
  cold: ColdIndexing;
  /** Every transcript file, in the order to read them (the newest first reads best). */
  files: ListedFile[];
  /** True for a summary this version of the source wrote (anything else is read again from 0). */
  isSummary(x: unknown): boolean;
  onProgress(p: IndexProgress): void;
  /** Each result, after it is in the index (a source counts lines and failures here). */
  onResult?(r: FileResult): void;
  /** Ask the folds for each file's conversation messages too (search). Default: false. */
  messages?: boolean;
}

export interface ColdRun {
  /** Files not read yet: list() leaves them out. */
  readonly pending: ReadonlySet<string>;
  readonly done: Promise<void>;
}

interface Planned {
  task: FileTask;
  /** The index entry when planned (undefined: none), to tell whether another read came meanwhile. */
  before: TranscriptIndexEntry | undefined;
}

/** Plans the run; null when the unread bytes are below the threshold (the source reads them itself). */
export function startColdRun(o: ColdRunOptions): ColdRun | null {
  const planned = new Map<string, Planned>();
  const wanted = o.messages ? { messages: true, toolOutput: o.index.wantsToolOutput?.() ?? true } : {};
  let bytesTotal = 0;
  for (const f of o.files) {
    const entry = o.index.get(f.path);
    const ours = entry !== undefined && entry.harness === o.harness && o.isSummary(entry.summary);
    if (ours && entry.size === f.size && entry.mtimeMs === f.mtimeMs) continue; // up to date
    const resume = ours && f.size >= entry.offset && f.mtimeMs >= entry.mtimeMs;
    const from = resume ? entry.offset : 0;
    // A copy to fold into: the daemon's thread folds some tasks as they are (pool.ts), and the index's own
    // object must not change before the result is put, nor at all when the read fails.
    const summary = resume ? structuredClone(entry.summary) : null;
    const task: FileTask = { path: f.path, from, summary, bytes: Math.max(0, f.size - from), ...wanted };
    planned.set(f.path, { task, before: entry });
    bytesTotal += task.bytes;
  }
  if (planned.size === 0 || bytesTotal < (o.cold.minBytes ?? DEFAULT_COLD_MIN_BYTES)) return null;
  const pending = new Set(planned.keys());
  const progress: IndexProgress = { harness: o.harness, total: planned.size, done: 0, bytesTotal, bytesDone: 0 };
  o.onProgress({ ...progress });
  const apply = (results: FileResult[]): void => {
    for (const r of results) {
      pending.delete(r.path);
      progress.done++;
      progress.bytesDone += r.bytes;
      const p = planned.get(r.path);
      if (r.ok && p && o.index.get(r.path) === p.before) {
        o.index.put({ path: r.path, harness: o.harness, size: r.size, mtimeMs: r.mtimeMs, offset: r.offset, summary: r.summary, usage: r.usage, ...(r.messages ? { messages: r.messages } : {}) });
      }
      o.onResult?.(r);
    }
    o.onProgress({ ...progress });
  };
  // The store holds its writes while the run folds (the daemon's thread then only folds results, so the
  // listing is complete sooner) and writes them after it in chunks (the daemon's store first lingers a
  // moment: create-daemon.ts).
  const release = o.index.hold?.();
  const done = o.cold.indexer.read(o.kind, [...planned.values()].map((p) => p.task), apply).finally(() => {
    pending.clear();
    release?.();
  });
  return { pending, done };
}

/**
 * Writes what the index gathers now. A write that fails here (the store closing, a full disk) is left to
 * the store's own next commit, which meets the same error where it always has: the run itself never fails.
 */
export function flushQuietly(index: TranscriptIndex): void {
  try {
    index.flush?.();
  } catch {
    // see above
  }
}

/** A failed read as a result (a file that is not regular is named so: ENOTREG). */
export function failedResult(task: FileTask, e: unknown): FileResult {
  const code = isNotRegularFile(e) ? e.code : ((e as NodeJS.ErrnoException).code ?? 'EIO');
  return { ok: false, path: task.path, code, message: (e as Error).message, bytes: task.bytes };
}
