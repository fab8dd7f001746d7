/**
 * Search: full-text search over every harness's transcripts. The store implements SearchRepository
 * (src/store/search.ts, SQLite FTS5), fed by the transcript index as sources fold new bytes; the
 * query language is parsed here (query-parser.ts) into a safe FTS5 expression and filters.
 */
import type { Harness } from '../core/session.ts';
import type { MessageRole } from '../core/transcript-message.ts';

/** What a parsed query asks the repository for. */
export interface CompiledQuery {
  /** An FTS5 MATCH expression built only from quoted strings (user text never reaches FTS5 raw). */
  match: string;
  harnesses: Harness[];
  roles: MessageRole[];
  /** Epoch ms, inclusive. */
  sinceMs: number | null;
  /** Epoch ms, exclusive. */
  untilMs: number | null;
  /** `repo:` values, matched against a session's repository root (or cwd) by the service. */
  repos: string[];
  /** `branch:` values, matched against a session's branch by the service. */
  branches: string[];
}

/** One stored hit, best first. */
export interface SearchRow {
  sessionId: string;
  harness: Harness;
  role: MessageRole;
  /** Epoch ms of the message, when known. */
  atMs: number | null;
  position: number;
  /** The snippet with matches between \u0001 and \u0002. */
  snippet: string;
  /** bm25 score: lower is better. */
  score: number;
}

export interface SearchIndexStats {
  /** Messages indexed. */
  messages: number;
  /** Transcript files with indexed messages. */
  files: number;
}

export interface SearchRepository {
  /** Hits best first (bm25, then newer first), at most `limit`. Must not throw on a compiled query. */
  query(q: CompiledQuery, limit: number): Promise<SearchRow[]>;
  stats(): Promise<SearchIndexStats>;
}

/** A hit as the API answers it. */
export interface SearchHit {
  role: MessageRole;
  at: string | null;
  /** Plain text around the match, one line. */
  snippet: string;
  /** [start, end) character ranges of `snippet` that matched, for highlighting. */
  marks: Array<[number, number]>;
  position: number;
}

export interface SearchSessionRef {
  harness: Harness;
  id: string;
  title: string | null;
  cwd: string | null;
  repoRoot: string | null;
  branch: string | null;
  live: boolean;
}

export interface SearchResult {
  session: SearchSessionRef;
  hits: SearchHit[];
}
