/**
 * One source's cold index: which of its transcript files the index does not hold yet, read through
 * the cold indexer, and each batch's results put into the index, which holds its writes until the run
 * ends. A file some other read brought up to date meanwhile (a watch event's targeted read) keeps what
 * that read wrote.
 *
 * Search's messages and the usage records come second. A file read from its start is first read
 * without them (its put says `searchLater`): what the listing needs, each session's summary with its
 * tokens, cost and status, is complete sooner, and the run holds and hands over less. Once the listing
 * is complete, those files are read again from the start with both, one more pass through the same
 * indexer, and each put brings them to the store (usage reports and search then have them). A file read
 * from an offset (it grew since it was indexed) brings both at once, as before. Without messages (search
 * off) there is one pass, with the usage records.
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
  /**
   * How long after the run's listing is complete the files read without their messages are read again
   * for them, ms: the clients that waited for that listing ask for it first. Default: 0.
   */
  searchAfterMs?: number;
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
  /** After `done`: the files read without their messages are read again for them. Never rejects. */
  readonly searched: Promise<void>;
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
    // A read from the start brings its messages and usage records in the second pass (searchLater); a
    // resumed one both at once.
    const firstPass = o.messages === true && from === 0 ? { usage: false } : {};
    const task: FileTask = { path: f.path, from, summary, bytes: Math.max(0, f.size - from), ...(from > 0 ? wanted : firstPass) };
    planned.set(f.path, { task, before: entry });
    bytesTotal += task.bytes;
  }
  if (planned.size === 0 || bytesTotal < (o.cold.minBytes ?? DEFAULT_COLD_MIN_BYTES)) return null;
  const pending = new Set(planned.keys());
  const progress: IndexProgress = { harness: o.harness, total: planned.size, done: 0, bytesTotal, bytesDone: 0 };
  o.onProgress({ ...progress });
  /** Files put without their messages: read again for them once the listing is complete. */
  const later: FileTask[] = [];
  const apply = (results: FileResult[]): void => {
    for (const r of results) {
      pending.delete(r.path);
      progress.done++;
      progress.bytesDone += r.bytes;
      const p = planned.get(r.path);
      if (r.ok && p && o.index.get(r.path) === p.before) {
        const searchLater = o.messages === true && p.task.from === 0;
        o.index.put({ path: r.path, harness: o.harness, size: r.size, mtimeMs: r.mtimeMs, offset: r.offset, summary: r.summary, usage: r.usage, ...(r.messages ? { messages: r.messages } : {}), ...(searchLater ? { searchLater } : {}) });
        if (searchLater) later.push({ path: r.path, from: 0, summary: null, bytes: r.size, ...wanted });
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
  const searched = done
    .then(() => (later.length > 0 ? pause(o.cold.searchAfterMs ?? 0) : undefined))
    .then(() => readForSearch(o, later.splice(0), wanted, SEARCH_READS))
    .catch(() => {}); // a run cut short (the daemon closing): the store reads those files again at its next open
  return { pending, done, searched };
}

/** Reads of a file for its messages at most, when another read keeps getting further (a session writing). */
const SEARCH_READS = 3;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The second pass: `tasks` read from their start with their messages; those another read overtook, again. */
async function readForSearch(o: ColdRunOptions, tasks: FileTask[], wanted: Partial<FileTask>, reads: number): Promise<void> {
  if (tasks.length === 0) return;
  const overtaken: FileTask[] = [];
  await o.cold.indexer.read(o.kind, tasks, (results) => putMessages(o, results, reads > 1 ? (path, bytes) => overtaken.push({ path, from: 0, summary: null, bytes, ...wanted }) : null));
  await readForSearch(o, overtaken, wanted, reads - 1);
}

/**
 * The second pass's results: each file read again from its start, now with its messages and usage
 * records, is put whole (as any read from the start is), unless it left the index meanwhile. When its
 * bytes are those the first pass read, the summary the index holds is kept (the same: a listing then
 * finds nothing changed). When a read from an offset got further meanwhile (a session writing; the
 * store kept none of its messages, the path being behind), the file is read again (`again`); on the last
 * try this read is put all the same, and the next listing reads on from its offset.
 */
function putMessages(o: ColdRunOptions, results: FileResult[], again: ((path: string, bytes: number) => void) | null): void {
  for (const r of results) {
    const e = o.index.get(r.path);
    if (!r.ok || e === undefined) continue;
    if (e.offset > r.offset && again) {
      again(r.path, e.size);
      continue;
    }
    const same = e.size === r.size && e.mtimeMs === r.mtimeMs && e.offset === r.offset;
    try {
      // A file the fold gives no messages for (no session id to index them under) is brought level all the same.
      o.index.put({ path: r.path, harness: o.harness, size: r.size, mtimeMs: r.mtimeMs, offset: r.offset, summary: same ? e.summary : r.summary, usage: r.usage, ...(r.messages ? { messages: r.messages } : {}), searchLater: false });
    } catch {
      // the store closing: its next open reads the file again (it has no search row)
    }
  }
}

/** A failed read as a result (a file that is not regular is named so: ENOTREG). */
export function failedResult(task: FileTask, e: unknown): FileResult {
  const code = isNotRegularFile(e) ? e.code : ((e as NodeJS.ErrnoException).code ?? 'EIO');
  return { ok: false, path: task.path, code, message: (e as Error).message, bytes: task.bytes };
}
