/**
 * SQLite implementation of the store (better-sqlite3): WAL so readers never block the writer,
 * busy_timeout so a second connection waits instead of failing, synchronous=FULL so an answer
 * committed before a kill -9 or power loss is still there after it.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync } from 'node:fs';
import { MusterError } from '../errors/index.ts';
import type { Harness } from '../sources/session.ts';
import type { TranscriptIndex, TranscriptIndexEntry } from '../sources/contract.ts';
import { migrate } from './migrations.ts';
import { createSqliteGoalsRepository } from './goals.ts';
import { createSqliteActionsRepository } from './actions.ts';
import { createSqliteBoardRepository } from './board.ts';
import { createSqlitePagesRepository } from './pages.ts';
import { createSqliteLaunchesRepository } from './launches.ts';
import { defaultSettings, validateSettingsPatch, type Settings } from './settings.ts';
import type { Store } from './types.ts';

export interface SqliteStoreOptions {
  /** Database file path, or ':memory:' in tests. */
  path: string;
  /** busy_timeout in ms. Default: 5000. */
  busyTimeoutMs?: number;
  clock?: () => number;
}

export function openSqliteStore(options: SqliteStoreOptions): Store {
  const clock = options.clock ?? Date.now;
  let db: Database.Database;
  try {
    const fresh = options.path !== ':memory:' && !existsSync(options.path);
    db = new Database(options.path);
    if (fresh) chmodSync(options.path, 0o600);
    db.pragma('journal_mode = WAL');
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
  } catch (e) {
    throw new MusterError('store_error', `cannot open the store at ${options.path}: ${(e as Error).message}`, { cause: e });
  }
  const schemaVersion = migrate(db);
  let closed = false;

  const getSetting = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings');
  const putSetting = db.prepare('INSERT INTO settings(key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at');

  const readSettings = (): Settings => {
    const out = defaultSettings();
    for (const row of getSetting.all()) {
      // Keys no longer known are ignored rather than failing the whole read.
      if (row.key in out) out[row.key] = JSON.parse(row.value) as Settings[string];
    }
    return out;
  };

  return {
    kind: 'sqlite',
    schemaVersion,
    settings: {
      all: async () => readSettings(),
      update: async (patch) => {
        const valid = validateSettingsPatch(patch);
        const at = new Date(clock()).toISOString();
        db.transaction(() => {
          for (const [k, v] of Object.entries(valid)) putSetting.run(k, JSON.stringify(v), at);
        })();
        return readSettings();
      },
    },
    transcriptIndex: createSqliteTranscriptIndex(db),
    actions: createSqliteActionsRepository(db),
    board: createSqliteBoardRepository(db),
    pages: createSqlitePagesRepository(db),
    launches: createSqliteLaunchesRepository(db),
    goals: createSqliteGoalsRepository(db),
    close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

interface IndexRow { path: string; harness: string; size: number; mtime_ms: number; offset: number; summary: string }

function toEntry(r: IndexRow): TranscriptIndexEntry {
  return { path: r.path, harness: r.harness as Harness, size: r.size, mtimeMs: r.mtime_ms, offset: r.offset, summary: JSON.parse(r.summary) as unknown };
}

function createSqliteTranscriptIndex(db: Database.Database): TranscriptIndex {
  const get = db.prepare<[string], IndexRow>('SELECT * FROM transcript_index WHERE path = ?');
  const put = db.prepare('INSERT OR REPLACE INTO transcript_index(path, harness, size, mtime_ms, offset, summary) VALUES (?, ?, ?, ?, ?, ?)');
  const del = db.prepare('DELETE FROM transcript_index WHERE path = ?');
  const list = db.prepare<[string], IndexRow>('SELECT * FROM transcript_index WHERE harness = ?');
  return {
    get(path) {
      const r = get.get(path);
      return r ? toEntry(r) : undefined;
    },
    put(e) {
      put.run(e.path, e.harness, e.size, e.mtimeMs, e.offset, JSON.stringify(e.summary ?? null));
    },
    remove(path) {
      del.run(path);
    },
    list(harness) {
      return list.all(harness).map(toEntry);
    },
  };
}
