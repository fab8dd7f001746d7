/**
 * The search index in SQLite (its tables: search-db.ts): `apply` writes transcripts' messages (a
 * writer: the store's own connection inside the transcript index's transaction, or the search thread's,
 * search-thread/), `createSqliteSearchRepository` answers queries on the store's connection. A message
 * row names its file by id, not by path and session: a cold index writes tens of thousands of them.
 */
import type Database from 'better-sqlite3';
import type { Harness } from '../core/session.ts';
import type { MessageRole } from '../core/transcript-message.ts';
import type { IndexedMessages } from '../discovery/contract.ts';
import type { CompiledQuery, SearchRepository, SearchRow } from '../search/types.ts';
import { SEARCH_SCHEMA } from './search-db.ts';

/** One transcript's change for the search index, in the order the transcript index took them. */
export type SearchOp =
  /** A put: its messages if it brought any, and the byte offset the transcript was read up to. */
  | { kind: 'put'; path: string; harness: Harness; offset: number; messages: IndexedMessages | undefined }
  /** A transcript that left the index. */
  | { kind: 'forget'; path: string };

/** Messages a batch of ops brings (what a writer has left to write, counted). */
export const rowsOf = (ops: readonly SearchOp[]): number => ops.reduce((n, op) => n + (op.kind === 'put' ? (op.messages?.items.length ?? 0) : 0), 0);

export interface SearchWriter {
  /** Writes ops in order; call inside a transaction. Tool results' text only when `withOutput`. */
  apply(ops: readonly SearchOp[], withOutput: boolean): void;
  /** Drops what was indexed for a transcript; inside a transaction. */
  forget(path: string): void;
}

/** The writes of the search tables in `schema` of `db` ('main' on the search thread's own connection). */
export function createSearchWriter(db: Database.Database, schema: string): SearchWriter {
  const s = schema;
  const fileOf = db.prepare<[string], { id: number; next_position: number }>(`SELECT id, next_position FROM ${s}.search_files WHERE path = ?`);
  const addFile = db.prepare(`INSERT INTO ${s}.search_files(path, harness, session_id, next_position, offset) VALUES (?, ?, ?, 0, ?)`);
  const setNext = db.prepare(`UPDATE ${s}.search_files SET next_position = ?, harness = ?, session_id = ?, offset = ? WHERE id = ?`);
  const setOffset = db.prepare(`UPDATE ${s}.search_files SET offset = ?, harness = ? WHERE id = ?`);
  const insertDoc = db.prepare(`INSERT INTO ${s}.search_docs(file_id, role, at_ms, position) VALUES (?, ?, ?, ?)`);
  const insertText = db.prepare(`INSERT INTO ${s}.search_text(rowid, text, tags) VALUES (?, ?, ?)`);
  const dropTextFrom = db.prepare(`DELETE FROM ${s}.search_text WHERE rowid IN (SELECT id FROM ${s}.search_docs WHERE file_id = ? AND position >= ?)`);
  const dropDocsFrom = db.prepare(`DELETE FROM ${s}.search_docs WHERE file_id = ? AND position >= ?`);
  const dropFile = db.prepare(`DELETE FROM ${s}.search_files WHERE id = ?`);
  const hasDocs = db.prepare<[number], { n: number }>(`SELECT EXISTS(SELECT 1 FROM ${s}.search_docs WHERE file_id = ?) AS n`);

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
  const put = (op: Extract<SearchOp, { kind: 'put' }>, withOutput: boolean): void => {
    const { path, harness, offset, messages } = op;
    const known = fileOf.get(path);
    const fileId = known?.id ?? Number(addFile.run(path, harness, messages?.sessionId ?? null, offset).lastInsertRowid);
    if (!messages) {
      setOffset.run(offset, harness, fileId);
      return;
    }
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
    setNext.run(position, harness, messages.sessionId, offset, fileId);
  };
  return {
    apply(ops, withOutput) {
      for (const op of ops) {
        if (op.kind === 'put') put(op, withOutput);
        else forget(op.path);
      }
    },
    forget,
  };
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

/**
 * A query waits this long at most for the messages the store has taken and a search thread has not
 * written yet (a search right after a transcript was read finds it; one during a first start answers
 * with what is written so far).
 */
export const QUERY_SETTLE_MS = 1000;

/**
 * Queries and counts on the store's connection, the search database attached as `search`; `settle`,
 * with a search thread, waits for what it was given.
 */
export function createSqliteSearchRepository(db: Database.Database, settle?: (maxMs: number) => Promise<void>): SearchRepository {
  const countDocs = db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${SEARCH_SCHEMA}.search_docs`);
  const countFiles = db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${SEARCH_SCHEMA}.search_files WHERE next_position > 0`);
  return {
    async query(q, limit) {
      await settle?.(QUERY_SETTLE_MS);
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
    ? `SELECT search_text.rowid AS id, bm25(search_text, 1.0, 0.0) AS score FROM ${SEARCH_SCHEMA}.search_text JOIN ${SEARCH_SCHEMA}.search_docs d ON d.id = search_text.rowid WHERE ${where.join(' AND ')} ORDER BY search_text.rowid DESC LIMIT ${RANK_WINDOW}`
    : `SELECT rowid AS id, bm25(search_text, 1.0, 0.0) AS score FROM ${SEARCH_SCHEMA}.search_text WHERE ${where.join(' AND ')} ORDER BY rowid DESC LIMIT ${RANK_WINDOW}`;
  const rank = `SELECT id, score FROM (${window}) ORDER BY score LIMIT ?`;
  const sql = `
    WITH top AS (${rank})
    SELECT f.session_id, f.harness, d.role, d.at_ms, d.position,
      snippet(search_text, 0, char(1), char(2), '…', ${SNIPPET_TOKENS}) AS snippet, top.score AS score
    FROM top JOIN ${SEARCH_SCHEMA}.search_text ON search_text.rowid = top.id JOIN ${SEARCH_SCHEMA}.search_docs d ON d.id = top.id JOIN ${SEARCH_SCHEMA}.search_files f ON f.id = d.file_id
    WHERE search_text MATCH ?
    ORDER BY top.score, d.at_ms DESC`;
  return { sql, params };
}
