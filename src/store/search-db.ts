/**
 * The search index's own database file, beside the store (`muster-search.db` beside `muster.db`): its
 * FTS5 writes, a first start's largest cost, then run in a thread of their own (search-thread/) while
 * the daemon's thread writes the store, instead of after it on the same connection. The store's
 * connection attaches it as `search` to answer queries (and, without a writer thread, to write it).
 *
 * The two files commit separately, so each transcript's row in `search_files` records the offset its
 * messages were read up to; at every open, a transcript whose offset differs from the transcript
 * index's (a crash between the two commits, a writer thread that failed) is forgotten by both and read
 * again (`repairSearch`): usage records read again are upserted to the same rows.
 */
import type Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';

/** The schema name the store's connection attaches the search database under. */
export const SEARCH_SCHEMA = 'search';

/** The search database of the store at `storePath` (an in-memory store has an in-memory one). */
export function searchDbPathOf(storePath: string): string {
  if (storePath === ':memory:') return ':memory:';
  return `${storePath.endsWith('.db') ? storePath.slice(0, -3) : storePath}-search.db`;
}

/**
 * Bytes of terms FTS5 gathers in memory before it writes them out as a segment (its default: 1 MiB).
 * The writes of a commit of thousands of messages (a first start's) then make a few large segments
 * instead of dozens of small ones to merge: the FTS5 inserts of 75,768 messages (22 MB of text) in one
 * transaction took 915-1,110 ms against 1,268-1,374 ms with the default (a scratch script, three runs
 * each way alternating). A transaction's terms stay in memory up to this bound.
 */
export const SEARCH_PENDING_TERMS_BYTES = 16 * 1024 * 1024;

/** The page size of a new search database (the store's, and FTS5 leaves to match: searchTextConfigSql). */
export const SEARCH_PAGE_SIZE = 16_384;

/** Version of the search database's layout (its own `user_version`). */
export const SEARCH_DB_VERSION = 1;

/**
 * FTS5's settings for search_text in a database of `pageSize` pages: leaves of a page less 46 bytes, as
 * FTS5's default of 4,050 is for 4 KiB pages (a leaf is one row of its data table and so stays within
 * one page, without an overflow page), and the pending-terms buffer above.
 */
export function searchTextConfigSql(pageSize: number, schema = 'main'): string {
  const leaf = Math.max(64, pageSize - 46);
  return `
    INSERT INTO ${schema}.search_text(search_text, rank) VALUES ('pgsz', ${leaf});
    INSERT INTO ${schema}.search_text(search_text, rank) VALUES ('hashsize', ${SEARCH_PENDING_TERMS_BYTES});
  `;
}

/**
 * `search_files`: every transcript the index holds, its session and harness, the position of its next
 * message and the byte offset its messages were read up to (the transcript index's, to compare); a file
 * with no messages yet has no session. `search_docs`: each indexed message's file, role, time and
 * position; `search_text` (FTS5, unicode61 without diacritics) its text under the same rowid, with its
 * role and harness as tag words (`tags`), so those filters are answered by the FTS index itself.
 */
export function searchTablesSql(schema: string): string {
  return `
    CREATE TABLE ${schema}.search_files (
      id INTEGER PRIMARY KEY,
      path TEXT NOT NULL UNIQUE,
      harness TEXT NOT NULL,
      session_id TEXT,
      next_position INTEGER NOT NULL,
      offset INTEGER NOT NULL
    );
    CREATE TABLE ${schema}.search_docs (
      id INTEGER PRIMARY KEY,
      file_id INTEGER NOT NULL,
      role TEXT NOT NULL,
      at_ms INTEGER,
      position INTEGER NOT NULL
    );
    CREATE INDEX ${schema}.search_docs_file ON search_docs(file_id, position);
    CREATE VIRTUAL TABLE ${schema}.search_text USING fts5(text, tags, tokenize = 'unicode61 remove_diacritics 2');
  `;
}

/** Creates the search tables in `schema` when they are not there yet. */
export function prepareSearchDb(db: Database.Database, schema: string): void {
  const version = db.pragma(`${schema}.user_version`, { simple: true }) as number;
  if (version > SEARCH_DB_VERSION) throw new Error(`the search index's schema ${version} is newer than this build understands (${SEARCH_DB_VERSION})`);
  if (version === SEARCH_DB_VERSION) return;
  db.transaction(() => {
    db.exec(searchTablesSql(schema));
    db.exec(searchTextConfigSql(db.pragma(`${schema}.page_size`, { simple: true }) as number, schema));
    db.pragma(`${schema}.user_version = ${SEARCH_DB_VERSION}`);
  })();
}

/** Attaches the search database at `path` to the store's connection as `search`, made 0600 and WAL when new. */
export function attachSearchDb(db: Database.Database, path: string): void {
  if (path !== ':memory:' && !existsSync(path)) {
    closeSync(openSync(path, 'wx', 0o600));
    chmodSync(path, 0o600);
  }
  db.prepare(`ATTACH DATABASE ? AS ${SEARCH_SCHEMA}`).run(path);
  const tables = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${SEARCH_SCHEMA}.sqlite_master`).get()?.n ?? 0;
  // A page size takes effect only on an empty file, and before WAL.
  if (tables === 0) db.pragma(`${SEARCH_SCHEMA}.page_size = ${SEARCH_PAGE_SIZE}`);
  if (path !== ':memory:') db.pragma(`${SEARCH_SCHEMA}.journal_mode = WAL`);
  // Without an fsync per commit: the index can be rebuilt from the transcripts, and a commit lost to a
  // power cut leaves an offset that differs from the transcript index's (repairSearch).
  db.pragma(`${SEARCH_SCHEMA}.synchronous = NORMAL`);
  prepareSearchDb(db, SEARCH_SCHEMA);
}

/**
 * Makes the search database agree with the transcript index (both attached to `db`): a transcript the
 * index holds at another offset than its messages were read to, or at all without them, is dropped
 * from both (`forget`) so discovery reads it again whole; one the index no longer holds leaves the
 * search index. Returns the transcripts dropped.
 */
export function repairSearch(db: Database.Database, forget: (path: string) => void): number {
  const stale = db.prepare<[], { path: string }>(`
    SELECT t.path FROM main.transcript_index t LEFT JOIN ${SEARCH_SCHEMA}.search_files f ON f.path = t.path
      WHERE f.offset IS NULL OR f.offset <> t.offset
    UNION ALL
    SELECT f.path FROM ${SEARCH_SCHEMA}.search_files f LEFT JOIN main.transcript_index t ON t.path = f.path
      WHERE t.path IS NULL`).all();
  if (stale.length === 0) return 0;
  const drop = db.prepare('DELETE FROM main.transcript_index WHERE path = ?');
  db.transaction(() => {
    for (const { path } of stale) {
      drop.run(path);
      forget(path);
    }
  })();
  return stale.length;
}
