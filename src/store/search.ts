/**
 * The search index in SQLite: `search_files` holds every transcript file's session, harness and next
 * position; `search_docs` each indexed message's file, role, time and position; `search_text` (FTS5,
 * unicode61 without diacritics) its text under the same rowid, with its role and harness as tag words
 * (`tags`) so those filters are answered by the FTS index itself. A message row names its file by id,
 * not by path and session: a cold index writes tens of thousands of them, and the rows and their index
 * are a third of what they were (migration 11). Written by the transcript index's flush in the same
 * transaction as the entries whose bytes the messages came from.
 */
import type Database from 'better-sqlite3';
import type { Harness } from '../core/session.ts';
import type { MessageRole } from '../core/transcript-message.ts';
import type { IndexedMessages } from '../discovery/contract.ts';
import type { CompiledQuery, SearchRepository, SearchRow } from '../search/types.ts';

/** The files and message rows (migration 11); search_text is migration 10's. */
export const SEARCH_DOCS_SQL = `
  CREATE TABLE search_files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    harness TEXT NOT NULL,
    session_id TEXT NOT NULL,
    next_position INTEGER NOT NULL
  );
  CREATE TABLE search_docs (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    role TEXT NOT NULL,
    at_ms INTEGER,
    position INTEGER NOT NULL
  );
  CREATE INDEX search_docs_file ON search_docs(file_id, position);
`;

/**
 * Bytes of terms FTS5 gathers in memory before it writes them out as a segment (its default: 1 MiB).
 * The writes of a commit of thousands of messages (a first start's, a store's close) then make a few
 * large segments instead of dozens of small ones to merge: the FTS5 inserts of 75,768 messages (22 MB
 * of text) in one transaction took 915-1,110 ms against 1,268-1,374 ms with the default (a scratch
 * script, three runs each way alternating). A transaction's terms stay in memory up to this bound.
 */
export const SEARCH_PENDING_TERMS_BYTES = 16 * 1024 * 1024;

/**
 * FTS5's settings for search_text in a store of `pageSize` pages (migration 12): leaves of a page less
 * 46 bytes, as FTS5's default of 4,050 is for 4 KiB pages (a leaf is one row of its data table and so
 * stays within one page, without an overflow page), and the pending-terms buffer above.
 */
export function searchTextConfigSql(pageSize: number): string {
  const leaf = Math.max(64, pageSize - 46);
  return `
    INSERT INTO search_text(search_text, rank) VALUES ('pgsz', ${leaf});
    INSERT INTO search_text(search_text, rank) VALUES ('hashsize', ${SEARCH_PENDING_TERMS_BYTES});
  `;
}

/** A put's messages, kept in put order until the flush writes them. */
export interface PendingMessages {
  path: string;
  harness: Harness;
  messages: IndexedMessages;
}

export interface SqliteSearch extends SearchRepository {
  /** Writes messages of puts; call inside the index's write transaction. */
  write(batch: readonly PendingMessages[]): void;
  /** Drops what was indexed for a transcript that left the index; inside the transaction. */
  forget(path: string): void;
}

export interface SqliteSearchOptions {
  /** Whether tool results (raw tool output) are indexed; read at each write. Default: never. */
  includeToolOutput?: () => boolean;
}

interface HitSqlRow { session_id: string; harness: string; role: string; at_ms: number | null; position: number; snippet: string; score: number }

/**
 * Matches ranked per query: the most recently indexed ones (highest rowids, which FTS5 walks without a
 * sort). A word in nearly every message would otherwise cost a bm25 score per message (~1 ms per 3,000
 * here); past this many matches, older ones are not ranked.
 */
export const RANK_WINDOW = 10_000;

/** Words of snippet context around a match (FTS5 caps it at 64). */
const SNIPPET_TOKENS = 16;

export function createSqliteSearchRepository(db: Database.Database, options: SqliteSearchOptions = {}): SqliteSearch {
  const fileOf = db.prepare<[string], { id: number; next_position: number }>('SELECT id, next_position FROM search_files WHERE path = ?');
  const addFile = db.prepare('INSERT INTO search_files(path, harness, session_id, next_position) VALUES (?, ?, ?, 0)');
  const setNext = db.prepare('UPDATE search_files SET next_position = ?, harness = ?, session_id = ? WHERE id = ?');
  const insertDoc = db.prepare('INSERT INTO search_docs(file_id, role, at_ms, position) VALUES (?, ?, ?, ?)');
  const insertText = db.prepare('INSERT INTO search_text(rowid, text, tags) VALUES (?, ?, ?)');
  const dropTextFrom = db.prepare('DELETE FROM search_text WHERE rowid IN (SELECT id FROM search_docs WHERE file_id = ? AND position >= ?)');
  const dropDocsFrom = db.prepare('DELETE FROM search_docs WHERE file_id = ? AND position >= ?');
  const dropFile = db.prepare('DELETE FROM search_files WHERE id = ?');
  const hasDocs = db.prepare<[number], { n: number }>('SELECT EXISTS(SELECT 1 FROM search_docs WHERE file_id = ?) AS n');
  const countDocs = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM search_docs');
  const countFiles = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM search_files');
  const toolOutput = options.includeToolOutput ?? (() => false);

  /** Drops a file's messages at and after `position` (0: all of them). */
  const dropFrom = (fileId: number, position: number): void => {
    dropTextFrom.run(fileId, position);
    dropDocsFrom.run(fileId, position);
  };
  const forget = (path: string): void => {
    const file = fileOf.get(path);
    if (!file) return;
    dropFrom(file.id, 0);
    dropFile.run(file.id);
  };
  return {
    write(batch) {
      if (batch.length === 0) return;
      const withOutput = toolOutput();
      for (const { path, harness, messages } of batch) {
        const known = fileOf.get(path);
        const fileId = known?.id ?? Number(addFile.run(path, harness, messages.sessionId).lastInsertRowid);
        let position: number;
        if (messages.position !== undefined) {
          // A re-read from a known position: what was indexed there and after is replaced.
          if (known) dropFrom(fileId, messages.position);
          position = messages.position;
        } else if (messages.from === 0) {
          // A first read has nothing to drop: the look-up through search_docs' file index is far cheaper
          // than the deletes, the first of which goes through FTS5 (a cold index's largest cost once).
          if (known && hasDocs.get(fileId)?.n === 1) dropFrom(fileId, 0);
          position = 0;
        } else position = known?.next_position ?? 0;
        for (const m of messages.items) {
          const p = position++;
          // Positions count every message, so reading the file whole finds a hit at the same place.
          if (m.role === 'tool-result' && !withOutput) continue;
          if (m.text.trim() === '') continue;
          const at = m.at === null ? null : Date.parse(m.at);
          const id = insertDoc.run(fileId, m.role, Number.isFinite(at) ? at : null, p).lastInsertRowid;
          insertText.run(id, m.text, tagsOf(m.role, harness));
        }
        setNext.run(position, harness, messages.sessionId, fileId);
      }
    },
    forget,
    async query(q, limit) {
      const { sql, params } = buildQuery(q, limit);
      const rows = db.prepare<unknown[], HitSqlRow>(sql).all(...params);
      return rows.map((r): SearchRow => ({
        sessionId: r.session_id,
        harness: r.harness as Harness,
        role: r.role as MessageRole,
        atMs: r.at_ms,
        position: r.position,
        snippet: r.snippet,
        score: r.score,
      }));
    },
    async stats() {
      return { messages: countDocs.get()?.n ?? 0, files: countFiles.get()?.n ?? 0 };
    },
  };
}

/** Tag words of a message's role and harness: letters only, so the tokenizer keeps each whole. */
const roleTag = (role: string): string => `role${role.replace(/[^a-z]/g, '')}`;
const harnessTag = (harness: string): string => `harness${harness.replace(/[^a-z]/g, '')}`;
/** The tags column of each role and harness, made once (a cold index writes tens of thousands of rows). */
const tagCache = new Map<string, string>();
function tagsOf(role: string, harness: string): string {
  const key = `${role}\u0000${harness}`;
  let tags = tagCache.get(key);
  if (tags === undefined) tagCache.set(key, (tags = `${roleTag(role)} ${harnessTag(harness)}`));
  return tags;
}

/** The MATCH expression: the query's terms on the text, the role and harness filters on the tags. */
function matchOf(q: CompiledQuery): string {
  const parts = [`text : (${q.match})`];
  // Tags come from closed lists (validated by the parser), never from typed text.
  if (q.roles.length > 0) parts.push(`tags : (${q.roles.map(roleTag).join(' OR ')})`);
  if (q.harnesses.length > 0) parts.push(`tags : (${q.harnesses.map(harnessTag).join(' OR ')})`);
  return parts.join(' AND ');
}

/**
 * The SQL of one compiled query: only placeholders carry what the user typed. The newest RANK_WINDOW
 * matches are ranked on rowids alone (joined to the docs only for a time filter), then snippets are made
 * for the kept rows only: snippet()
 * in the ranking query would be computed for every match before the sort. Ties are ordered newer first
 * among the kept rows.
 */
function buildQuery(q: CompiledQuery, limit: number): { sql: string; params: unknown[] } {
  const match = matchOf(q);
  const timed = q.sinceMs !== null || q.untilMs !== null;
  const where: string[] = ['search_text MATCH ?'];
  const params: unknown[] = [match];
  if (q.sinceMs !== null) {
    where.push('d.at_ms >= ?');
    params.push(q.sinceMs);
  }
  if (q.untilMs !== null) {
    where.push('d.at_ms < ?');
    params.push(q.untilMs);
  }
  params.push(limit, match);
  const window = timed
    ? `SELECT search_text.rowid AS id, bm25(search_text, 1.0, 0.0) AS score FROM search_text JOIN search_docs d ON d.id = search_text.rowid WHERE ${where.join(' AND ')} ORDER BY search_text.rowid DESC LIMIT ${RANK_WINDOW}`
    : `SELECT rowid AS id, bm25(search_text, 1.0, 0.0) AS score FROM search_text WHERE ${where.join(' AND ')} ORDER BY rowid DESC LIMIT ${RANK_WINDOW}`;
  const rank = `SELECT id, score FROM (${window}) ORDER BY score LIMIT ?`;
  const sql = `
    WITH top AS (${rank})
    SELECT f.session_id, f.harness, d.role, d.at_ms, d.position,
      snippet(search_text, 0, char(1), char(2), '…', ${SNIPPET_TOKENS}) AS snippet, top.score AS score
    FROM top JOIN search_text ON search_text.rowid = top.id JOIN search_docs d ON d.id = top.id JOIN search_files f ON f.id = d.file_id
    WHERE search_text MATCH ?
    ORDER BY top.score, d.at_ms DESC`;
  return { sql, params };
}
