/**
 * The contract every session source implements: live and dormant sessions of one harness, normalised
 * into the one Session shape, with status, and the counts behind /api/diagnostics.
 * One shared test suite (harnesses/contract.test-support.ts) runs against each harness's implementation.
 */
import type { Harness, Session } from '../core/session.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import type { MessagePage, TranscriptMessage } from '../core/transcript-message.ts';

export type Disposer = () => void | Promise<void>;

/** What a source reports when something changed; the hub re-reads and diffs. */
export interface SourceChange {
  harness: Harness;
  /** Ids known to have changed; empty means "anything may have changed, re-list". */
  ids: string[];
}

export type EndOutcome =
  | { outcome: 'ended'; signal: string; pid: number }
  | { outcome: 'not_running'; reason: string }
  | { outcome: 'unsupported'; reason: string };

/** One message of a transcript tail, as plain text (the board renders it as text, never as HTML). */
export interface TailMessage {
  role: 'user' | 'assistant' | 'tool';
  text: string;
  /** ISO time of the message, when the transcript records one. */
  at: string | null;
}

/** Counters a source keeps for GET /api/diagnostics. */
export interface SourceDiagnostics {
  harness: Harness;
  filesScanned: number;
  filesSkipped: number;
  linesParsed: number;
  linesSkipped: number;
  staleRegistryFiles: number;
  /**
   * Entries found where the source reads a file that were not regular files — a FIFO, a socket, a
   * device, a directory, or a link to one — refused before any read (a FIFO or /dev/zero would block
   * the daemon) and skipped. Counted the way the source counts its other files.
   */
  notRegularFiles: number;
  errors: string[];
}

export interface SessionSource {
  readonly harness: Harness;
  /** Live and dormant sessions. Must not throw for bad input on disk: skip and count. */
  list(): Promise<Session[]>;
  get(id: string): Promise<Session | undefined>;
  /** Calls onChange when the harness's files change; returns a disposer. No polling loops per session. */
  watch(onChange: (change: SourceChange) => void): Disposer;
  /**
   * Ends a verified live session with the harness's clean signal; never signals a reused pid. With
   * `pid` (one of the session's `processes`), only that process is ended. Sources that list no
   * `processes` are never given a pid.
   */
  end(id: string, options?: { pid?: number }): Promise<EndOutcome>;
  /** The harness's resume command for `id` as argv, or null when it cannot be resumed. */
  resumeArgv(id: string): string[] | null;
  /** The exact id format this harness uses; anything else never reaches its files or a command. */
  isValidId(id: string): boolean;
  diagnostics(): SourceDiagnostics;
  /**
   * Optional: the last `limit` messages of the session's transcript, oldest first ([] when there is
   * no transcript). Sources without it make GET /api/sessions/:id/tail answer `supported: false`.
   */
  tail?(id: string, limit: number): Promise<TailMessage[]>;
  /**
   * Optional: the session's conversation from `position` on (at most `limit` messages), normalised as
   * the search index saw it, so a hit's position opens the same message. Null when the session has no
   * transcript. Sources without it make GET /api/sessions/:harness/:id/messages answer `supported: false`.
   */
  messages?(id: string, from: number, limit: number): Promise<MessagePage | null>;
  /**
   * Optional: sends `text` to a live session as the operator's next prompt through the harness's own
   * server (OpenCode's `prompt_async` on a `serve`/`--port` process, Codex's app-server `turn/start`),
   * when the session has one. Never throws: 'no_channel' when it has none now (nothing was sent: the
   * caller may try another channel), 'busy' when the session is in a turn that the server would not
   * queue behind, 'refused' when the server did not take it (or may have: never retried elsewhere).
   */
  prompt?(id: string, text: string): Promise<PromptOutcome>;
  /**
   * Optional: starts reading in the background, in worker threads, the transcripts the index does not
   * hold yet, when they are enough to be worth it (a first start on a machine full of history). Until a
   * file is read, list() leaves it out. `onProgress` hears the start and each batch once it is in the
   * index. Returns null when there is nothing to read this way, else a promise that resolves when every
   * file is read (never rejects).
   */
  coldIndex?(onProgress: (p: IndexProgress) => void): Promise<void> | null;
}

/**
 * How far a source's cold index is: the transcripts found unread when it started (a first start on a
 * machine full of history) and how many of them are in the index now.
 */
export interface IndexProgress {
  harness: Harness;
  /** Transcripts this cold index reads (it started with them unread). */
  total: number;
  /** Of those, read and in the index. */
  done: number;
  bytesTotal: number;
  bytesDone: number;
}

export type PromptOutcome = { ok: true; via: string } | { ok: false; reason: 'no_channel' | 'busy' | 'refused'; message: string };

/**
 * Incremental transcript index port: the store implements it (table transcript_index),
 * tests may pass an in-memory map. `summary` is the source's own JSON-serialisable state.
 */
export interface TranscriptIndexEntry {
  path: string;
  harness: Harness;
  size: number;
  mtimeMs: number;
  /** Byte offset up to which complete lines were consumed. */
  offset: number;
  summary: unknown;
  /**
   * Usage records of the bytes this put consumed (only the new ones: the summary carries the rest).
   * The index stores them with the entry, in the same write; they are not handed back by get/list.
   */
  usage?: readonly UsageRecord[];
  /**
   * Messages of the bytes this put consumed, for the search index; stored in the same write. `from`
   * is the byte offset the read started at: 0 means the file was read from its start (first read, or a
   * rewrite), and what was indexed for the path before is dropped.
   */
  messages?: IndexedMessages;
  /**
   * This read's messages come later, in a put whose messages are read from the file's start (a cold
   * index reads search's messages, and its usage records, again once its listing is complete). Until
   * then the path is behind: what was indexed for it is dropped and the messages of puts in between are not kept (that later
   * put brings them), so a search never holds part of a file out of order, and a crash meanwhile leaves
   * a path the search index has no row for, which the store reads again at its next open. False: this
   * put is that later read (from the start), which brings the path level even without messages (a
   * file with no session to index them under).
   */
  searchLater?: boolean;
}

export interface IndexedMessages {
  /** The session the file belongs to. */
  sessionId: string;
  from: number;
  /**
   * Sources that re-read rows rather than append bytes (OpenCode's store, where a reply is updated in
   * place): the position of the first item. What was indexed for the path at and after it is replaced;
   * `from` is then not read. Absent: items follow what is indexed (`from` > 0) or replace it (`from` 0).
   */
  position?: number;
  items: readonly TranscriptMessage[];
}

export interface TranscriptIndex {
  get(path: string): TranscriptIndexEntry | undefined;
  put(entry: TranscriptIndexEntry): void;
  remove(path: string): void;
  /** All entries of one harness (for warm start without touching files that did not change). */
  list(harness: Harness): TranscriptIndexEntry[];
  /**
   * Whether the messages put here should carry tool results' text (search indexes raw tool output only
   * when asked to). A source reads it before each read and, when false, gives each tool result as a
   * message without text, so it never decodes a tool's output. Default (absent): true.
   */
  wantsToolOutput?(): boolean;
  /** Writes what was put and not yet persisted, now (a store that gathers its writes). Default: nothing to do. */
  flush?(): void;
  /**
   * Holds the writes of what is put until the returned release is called (a cold run, while it folds
   * every file): gets and lists answer from memory meanwhile; on release the writes go out at once, in
   * chunks. A store bounds what a hold keeps. Default: no hold (writes go out as usual).
   */
  hold?(): () => void;
  /** Usage records and messages put and not yet written (a first start's, after its hold). Default: none. */
  waiting?(): number;
  /** Paths put with `searchLater` whose messages have not been put since. Default: none. */
  searchBehind?(): number;
}

/**
 * Whether a put leaves `path` behind in search (`searchLater`), or finds it so: then its messages are
 * not kept. A put whose messages are read from the file's start, or that says `searchLater: false`,
 * brings it level. Updates `behind`.
 */
export function isSearchBehind(behind: Set<string>, path: string, searchLater: boolean | undefined, messages: IndexedMessages | undefined): boolean {
  if (searchLater === true) {
    behind.add(path);
    return true;
  }
  if (!behind.has(path)) return false;
  if (searchLater === false || (messages !== undefined && messages.position === undefined && messages.from === 0)) {
    behind.delete(path);
    return false;
  }
  return true;
}

/**
 * The in-memory index of tests; `usage()` returns every record put, in order; `messages(path)` the
 * messages indexed for a path now (a put from byte 0 replaces them, a remove drops them).
 */
export function createMemoryTranscriptIndex(): TranscriptIndex & { usage(): UsageRecord[]; messages(path: string): TranscriptMessage[] } {
  const map = new Map<string, TranscriptIndexEntry>();
  const usage: UsageRecord[] = [];
  const texts = new Map<string, TranscriptMessage[]>();
  const behind = new Set<string>();
  return {
    get: (p) => map.get(p),
    put: (e) => {
      const { usage: records, messages, searchLater, ...entry } = e;
      if (records) for (const r of records) usage.push(r);
      if (isSearchBehind(behind, e.path, searchLater, messages)) {
        texts.delete(e.path);
      } else if (messages) {
        const before = texts.get(e.path) ?? [];
        const kept = messages.position !== undefined ? before.slice(0, messages.position) : messages.from === 0 ? [] : before;
        for (const m of messages.items) kept.push(m);
        texts.set(e.path, kept);
      }
      map.set(e.path, entry);
    },
    remove: (p) => {
      map.delete(p);
      texts.delete(p);
      behind.delete(p);
    },
    list: (h) => [...map.values()].filter((e) => e.harness === h),
    searchBehind: () => behind.size,
    usage: () => [...usage],
    messages: (p) => [...(texts.get(p) ?? [])],
  };
}
