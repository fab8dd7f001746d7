/**
 * Versioned schema migrations, applied in order inside one transaction each; `PRAGMA user_version`
 * records the version reached. Append new migrations; never edit a released one.
 */
import type Database from 'better-sqlite3';
import { GOALS_TABLE_SQL } from './goals.ts';
import { USAGE_TABLES_SQL } from './usage.ts';
import { WORKTREES_TABLE_SQL } from './worktrees.ts';
import { SEARCH_SCHEMA, searchTextConfigSql } from './search-db.ts';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'settings and transcript index',
    up(db) {
      db.exec(`
        CREATE TABLE settings (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE transcript_index (
          path TEXT PRIMARY KEY,
          harness TEXT NOT NULL,
          size INTEGER NOT NULL,
          mtime_ms REAL NOT NULL,
          offset INTEGER NOT NULL,
          summary TEXT NOT NULL
        );
        CREATE INDEX transcript_index_harness ON transcript_index(harness);
      `);
    },
  },
  {
    version: 2,
    name: 'pages and their notification deliveries',
    up(db) {
      db.exec(`
        CREATE TABLE pages (
          id TEXT PRIMARY KEY,
          kind TEXT NOT NULL,
          session_id TEXT,
          harness TEXT,
          limit_key TEXT NOT NULL,
          attribution TEXT NOT NULL,
          question TEXT NOT NULL,
          choices TEXT,
          urgency TEXT NOT NULL,
          level TEXT,
          context TEXT,
          status TEXT NOT NULL,
          answer TEXT,
          created_at TEXT NOT NULL,
          answered_at TEXT,
          delivered_at TEXT,
          closed_at TEXT,
          closed_by TEXT,
          expires_at TEXT NOT NULL
        );
        CREATE INDEX pages_status ON pages(status, expires_at);
        CREATE INDEX pages_limit ON pages(limit_key, kind, status);
        CREATE INDEX pages_session ON pages(session_id);
        CREATE TABLE page_deliveries (
          page_id TEXT NOT NULL REFERENCES pages(id),
          channel TEXT NOT NULL,
          status TEXT NOT NULL,
          error TEXT,
          at TEXT NOT NULL
        );
        CREATE INDEX page_deliveries_page ON page_deliveries(page_id);
      `);
    },
  },
  {
    version: 3,
    name: 'board: character packs, assignments, overrides, the canvas scene and its files',
    up(db) {
      db.exec(`
        CREATE TABLE board_packs (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE TABLE board_characters (
          pack_id TEXT NOT NULL REFERENCES board_packs(id) ON DELETE CASCADE,
          id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          data TEXT NOT NULL,
          created_at TEXT NOT NULL,
          PRIMARY KEY (pack_id, id)
        );
        CREATE TABLE board_choices (
          kind TEXT NOT NULL,
          key TEXT NOT NULL,
          pack_id TEXT NOT NULL,
          character_id TEXT,
          PRIMARY KEY (kind, key)
        );
        CREATE TABLE board_scene (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          elements TEXT NOT NULL,
          app_state TEXT NOT NULL,
          positions TEXT NOT NULL,
          version INTEGER NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE board_scene_files (
          id TEXT PRIMARY KEY,
          mime TEXT NOT NULL,
          data_url TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
      `);
    },
  },
  {
    version: 4,
    name: 'action log: who focused, resumed or ended which session, and the outcome',
    up(db) {
      db.exec(`
        CREATE TABLE actions (
          id TEXT PRIMARY KEY,
          at TEXT NOT NULL,
          actor TEXT NOT NULL,
          action TEXT NOT NULL,
          session_id TEXT NOT NULL,
          harness TEXT,
          outcome TEXT NOT NULL,
          detail TEXT NOT NULL
        );
        CREATE INDEX actions_session ON actions(session_id, id);
      `);
    },
  },
  {
    version: 5,
    name: 'launch records: one row per `muster <harness>` run (launch id, harness, name, pid, cwd, session id once known)',
    up(db) {
      db.exec(`
        CREATE TABLE launches (
          id TEXT PRIMARY KEY,
          harness TEXT NOT NULL,
          name TEXT,
          pid INTEGER,
          started_at TEXT NOT NULL,
          cwd TEXT NOT NULL,
          session_id TEXT,
          ended_at TEXT,
          exit_code INTEGER
        );
        CREATE INDEX launches_session ON launches(session_id);
      `);
    },
  },
  {
    version: 6,
    name: 'goals: one per session, with limits, usage, strikes and the last audit',
    up(db) {
      db.exec(GOALS_TABLE_SQL);
    },
  },
  {
    version: 7,
    name: 'usage records: one per API message or turn (tokens, model, time, session), and budget alerts sent',
    up(db) {
      db.exec(USAGE_TABLES_SQL);
      // Summaries indexed before this version hold no records: re-read every transcript once so the
      // history is there from the first report (offsets restart at 0; the summaries are rebuilt alike).
      db.exec('DELETE FROM transcript_index');
    },
  },
  {
    version: 8,
    name: 'worktrees Muster created for new sessions (path, repository, branch); never removed by Muster',
    up(db) {
      db.exec(WORKTREES_TABLE_SQL);
    },
  },
  {
    version: 9,
    name: 'fleet: the outbox of changes waiting to be published, and a mirror of what was last queued per record',
    up(db) {
      db.exec(FLEET_OUTBOX_SQL);
    },
  },
  {
    version: 10,
    name: 'search: an FTS5 index of transcript messages (session, harness, role, time, position), fed by the transcript index',
    up(db) {
      db.exec(SEARCH_TABLES_V10_SQL);
      // Summaries indexed before this version gave no messages: re-read every transcript once (usage
      // records read again are upserted to the same rows).
      db.exec('DELETE FROM transcript_index');
    },
  },
  {
    version: 11,
    name: "search: a message row names its file by id (search_files.id), not by path, session and harness",
    up(db) {
      // What is indexed stays: the rows move to the new tables under the same ids, so search_text's rowids
      // still name them. A message whose file has no row (never written so) is dropped with its text.
      db.exec(`
        ALTER TABLE search_files RENAME TO search_files_v10;
        ALTER TABLE search_docs RENAME TO search_docs_v10;
        ${SEARCH_DOCS_V11_SQL}
        INSERT INTO search_files(path, harness, session_id, next_position)
          SELECT path, harness, session_id, next_position FROM search_files_v10;
        INSERT INTO search_docs(id, file_id, role, at_ms, position)
          SELECT d.id, f.id, d.role, d.at_ms, d.position FROM search_docs_v10 d JOIN search_files f ON f.path = d.path;
        DELETE FROM search_text WHERE rowid NOT IN (SELECT id FROM search_docs);
        DROP TABLE search_docs_v10;
        DROP TABLE search_files_v10;
      `);
    },
  },
  {
    version: 12,
    name: "search: FTS5 leaves as large as the store's pages, and a larger buffer of pending terms",
    up(db) {
      db.exec(searchTextConfigSql(db.pragma('page_size', { simple: true }) as number));
    },
  },
  {
    version: 13,
    name: 'search: the index moves to its own database file (muster-search.db), written from a thread of its own',
    up(db) {
      const attached = (db.pragma('database_list') as { name: string }[]).some((d) => d.name === SEARCH_SCHEMA);
      if (attached) {
        // What is indexed moves under the same ids; each transcript gets its offset from the transcript
        // index (search-db.ts compares them at every open), and those without messages get a row too.
        const s = SEARCH_SCHEMA;
        db.exec(`
          DELETE FROM ${s}.search_text;
          DELETE FROM ${s}.search_docs;
          DELETE FROM ${s}.search_files;
          INSERT INTO ${s}.search_files(id, path, harness, session_id, next_position, offset)
            SELECT f.id, f.path, f.harness, f.session_id, f.next_position, t.offset
            FROM main.search_files f JOIN main.transcript_index t ON t.path = f.path;
          INSERT INTO ${s}.search_files(path, harness, session_id, next_position, offset)
            SELECT t.path, t.harness, NULL, 0, t.offset FROM main.transcript_index t
            WHERE t.path NOT IN (SELECT path FROM main.search_files);
          INSERT INTO ${s}.search_docs(id, file_id, role, at_ms, position)
            SELECT d.id, d.file_id, d.role, d.at_ms, d.position FROM main.search_docs d
            WHERE d.file_id IN (SELECT id FROM ${s}.search_files);
          INSERT INTO ${s}.search_text(rowid, text, tags)
            SELECT t.rowid, t.text, t.tags FROM main.search_text t WHERE t.rowid IN (SELECT id FROM ${s}.search_docs);
        `);
      } else {
        // No search database to move it to (a bare connection): every transcript is read again once.
        db.exec('DELETE FROM transcript_index');
      }
      db.exec('DROP TABLE main.search_text; DROP TABLE main.search_docs; DROP TABLE main.search_files;');
    },
  },
];

/** The search tables as migration 11 made them (migration 13 moved them to the search database). */
const SEARCH_DOCS_V11_SQL = `
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

/** The search tables as migration 10 made them (migration 11 moved their rows to search.ts's). */
const SEARCH_TABLES_V10_SQL = `
  CREATE TABLE search_files (
    path TEXT PRIMARY KEY,
    harness TEXT NOT NULL,
    session_id TEXT NOT NULL,
    next_position INTEGER NOT NULL
  );
  CREATE TABLE search_docs (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    harness TEXT NOT NULL,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    at_ms INTEGER,
    position INTEGER NOT NULL
  );
  CREATE INDEX search_docs_path ON search_docs(path);
  CREATE VIRTUAL TABLE search_text USING fts5(text, tags, tokenize = 'unicode61 remove_diacritics 2');
`;

/** The fleet outbox and its mirror (store/fleet-outbox.ts reads and writes them). */
export const FLEET_OUTBOX_SQL = `
  CREATE TABLE fleet_outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    op TEXT NOT NULL,
    data TEXT,
    at TEXT NOT NULL
  );
  CREATE TABLE fleet_mirror (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (kind, key)
  );
`;

export { SCHEMA_MARKER } from './schema-version.ts';

export function migrate(db: Database.Database, migrations: Migration[] = MIGRATIONS): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = Math.max(0, ...migrations.map((m) => m.version));
  if (current > latest) {
    // A newer Muster wrote this store; refusing beats corrupting it.
    throw new Error(`store schema ${current} is newer than this build understands (${latest})`);
  }
  // Applied by version, whatever the list order: user_version must only ever move forward.
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return latest;
}
