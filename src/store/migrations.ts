/**
 * Versioned schema migrations, applied in order inside one transaction each; `PRAGMA user_version`
 * records the version reached. Append new migrations; never edit a released one.
 */
import type Database from 'better-sqlite3';

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
];

/** The store schema marker published in the lock record (BEHAVIOUR A `schemaMarker`). */
export const SCHEMA_MARKER = `muster-schema-${MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0}`;

export function migrate(db: Database.Database, migrations: Migration[] = MIGRATIONS): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  if (current > latest) {
    // A newer Muster wrote this store; refusing beats corrupting it.
    throw new Error(`store schema ${current} is newer than this build understands (${latest})`);
  }
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return latest;
}
