/**
 * The cold indexer's contract: a source hands it the transcript files its index does not hold yet,
 * the indexer reads them with the harness's fold (one per kind of file) in worker threads, and hands
 * the results back in batches. Everything that crosses a thread is plain data (structured clone).
 */
import type { UsageRecord } from '../../core/usage-record.ts';
import type { IndexedMessages } from '../contract.ts';

/** One file to read: from byte `from`, folding into `summary` (a fresh one when `from` is 0). */
export interface FileTask {
  path: string;
  from: number;
  summary: unknown;
  /** Bytes expected to be read (size - from), for batching and progress. */
  bytes: number;
  /** Also read the bytes' conversation messages, for search. */
  messages?: boolean;
  /** With `messages`: whether tool results' text is wanted (false: each is a message without text). Default: true. */
  toolOutput?: boolean;
  /**
   * Also give the usage records of the bytes read. Default: true. False: none (the summary is the
   * same), for a read whose records a later read of the same bytes brings (cold-run.ts).
   */
  usage?: boolean;
}

/** What reading one file gave: the index entry's fields, or why it could not be read. */
export type FileResult =
  | {
    ok: true;
    path: string;
    size: number;
    mtimeMs: number;
    /** Byte offset just past the last complete line consumed. */
    offset: number;
    summary: unknown;
    /** Usage records of the bytes read (the index stores them with the entry). */
    usage: UsageRecord[];
    /** The conversation messages of the bytes read, when the task asked for them. */
    messages?: IndexedMessages;
    linesParsed: number;
    linesSkipped: number;
    bytes: number;
  }
  | {
    ok: false;
    path: string;
    /** errno-like code (ENOENT, EACCES, ENOTREG for a FIFO or device, which is never opened). */
    code: string;
    message: string;
    bytes: number;
  };

/** Reads one file. Must not throw: a failure is a result with `ok: false`. Runs in a worker thread. */
export type FileFold = (task: FileTask) => FileResult;

/** The folds a worker knows, by kind (a harness name, or a harness's kind of file). */
export type FoldRegistry = Readonly<Record<string, FileFold>>;

export interface ColdIndexer {
  /**
   * Reads `tasks` (in the order given) with the fold of `kind`; `onBatch` hears each batch of results
   * as it lands, in this thread. Resolves once every task has a result; never rejects for a file.
   */
  read(kind: string, tasks: FileTask[], onBatch: (results: FileResult[]) => void): Promise<void>;
  /** Stops the worker threads; pending reads resolve with what was read. Idempotent. */
  close(): Promise<void>;
}

/** Messages between the indexer and its workers. */
export interface BatchRequest {
  id: number;
  kind: string;
  tasks: FileTask[];
}

export interface BatchReply {
  id: number;
  results: FileResult[];
}
