/**
 * SQLite implementation of the store (better-sqlite3): WAL so readers never block the writer,
 * busy_timeout so a second connection waits instead of failing, synchronous=FULL so an answer
 * committed before a kill -9 or power loss is still there after it.
 */
import Database from 'better-sqlite3';
import { sqliteAddon } from '../discovery/regular-file/sqlite-files.ts';
import { chmodSync, existsSync } from 'node:fs';
import { MusterError } from '../errors/index.ts';
import { migrate } from './migrations.ts';
import { createSqliteGoalsRepository } from './goals.ts';
import { createSqliteBoardRepository } from './board.ts';
import { createSqliteActionsRepository } from './actions.ts';
import { createSqlitePagesRepository } from './pages.ts';
import { createSqliteLaunchesRepository } from './launches.ts';
import { createSqliteOutboxRepository } from './fleet-outbox.ts';
import { createSqliteWorktreesRepository } from './worktrees.ts';
import { settingsFrom, validateSettingsPatch, type Settings } from './settings.ts';
import type { Store } from './types.ts';
import { createSqliteUsageRepository } from './usage.ts';
import { createSearchWriter, createSqliteSearchRepository } from './search.ts';
import { SEARCH_SCHEMA, attachSearchDb, repairSearch, searchDbPathOf } from './search-db.ts';
import { createSqliteTranscriptIndex } from './transcript-index.ts';
import type { SearchSink } from './transcript-index.ts';
import { createBurstSearchSink } from './search-thread/burst-sink.ts';
import type { SearchThreadSpawn } from './search-thread/client.ts';

export { DEFAULT_INDEX_FLUSH_INTERVAL_MS } from './transcript-index.ts';

/**
 * The page size of a store this build creates (an existing store keeps its own: changing it needs a
 * VACUUM of the whole file). A first start writes tens of megabytes of index rows and FTS5 segments in
 * a few seconds; with 16 KiB pages (FTS5 leaves to match, migration 12) that took 13 % less: the same
 * 1.4 GB Claude corpus through the worker threads with search, three runs each way alternating,
 * 3.23-3.29 s against 3.32-4.04 s to the store's last write; discovery alone the same. A small commit
 * (a page answered) writes 16 KiB WAL frames instead of 4 KiB ones.
 */
export const STORE_PAGE_SIZE = 16_384;

export interface SqliteStoreOptions {
  /** Database file path, or ':memory:' in tests. */
  path: string;
  /** busy_timeout in ms. Default: 5000. */
  busyTimeoutMs?: number;
  clock?: () => number;
  /**
   * Least time between two commits of the transcript index's writes, ms. Default: 0 (every write
   * commits on the next tick); the daemon uses DEFAULT_INDEX_FLUSH_INTERVAL_MS. A write after a quiet
   * spell commits at once; while writes keep coming (a cold index hands over a batch every few ms),
   * they are gathered until this much time has passed since the last commit.
   */
  indexFlushIntervalMs?: number;
  /** Rows a hold of the transcript index keeps at most (transcript-index.ts). Default: 262,144. */
  indexHoldMaxRows?: number;
  /** Characters of message text a hold keeps at most (transcript-index.ts). Default: 32 Mi. */
  indexHoldMaxChars?: number;
  /** How long a hold of the transcript index keeps the writes past its release, ms (transcript-index.ts). Default: 0. */
  indexHoldLingerMs?: number;
  /**
   * True while requests want the thread: the transcript index's writes after a hold then go out in
   * small chunks (transcript-index.ts). Default: always (small chunks).
   */
  indexBusy?(): boolean;
  /**
   * Starts the search thread (a worker running search-thread/worker.ts) for bursts of messages: their
   * writes then run beside this thread's (search-thread/burst-sink.ts). Default: none (written on this
   * connection, in the transcript index's transactions; always so for ':memory:').
   */
  searchThread?: SearchThreadSpawn;
  /** Messages gathered that start the search thread (fewer are written on this connection). Default: 2,048. */
  searchThreadMinRows?: number;
  /** The search thread closes after this long without a write, once everything is written, ms. Default: 3,000. */
  searchThreadIdleMs?: number;
  /** Where the search thread's troubles and a repaired search index are reported. Default: nowhere. */
  log?(line: string): void;
}

export function openSqliteStore(options: SqliteStoreOptions): Store {
  const clock = options.clock ?? Date.now;
  let db: Database.Database;
  try {
    const fresh = options.path !== ':memory:' && !existsSync(options.path);
    db = new Database(options.path, { nativeBinding: sqliteAddon() });
    if (fresh) {
      chmodSync(options.path, 0o600);
      // Before anything is written: a page size takes effect only on an empty file (and not in WAL).
      db.pragma(`page_size = ${STORE_PAGE_SIZE}`);
    }
    // NORMAL while the schema is set up: a first start's switch to WAL and its dozen migration commits
    // would each wait for an fsync (tens of ms on a busy disk). WAL with NORMAL cannot corrupt the file;
    // a migration lost to a power cut runs again at the next open, and the first FULL commit after
    // makes every earlier frame of the log durable with it.
    db.pragma('synchronous = NORMAL');
    db.pragma('journal_mode = WAL');
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    db.pragma('foreign_keys = ON');
  } catch (e) {
    throw new MusterError('store_error', `cannot open the store at ${options.path}: ${(e as Error).message}`, { cause: e });
  }
  const searchPath = searchDbPathOf(options.path);
  let schemaVersion: number;
  try {
    try {
      attachSearchDb(db, searchPath);
    } catch (e) {
      throw new MusterError('store_error', `cannot open the search index at ${searchPath}: ${(e as Error).message}`, { cause: e });
    }
    schemaVersion = migrate(db);
  } catch (e) {
    db.close();
    throw e;
  }
  db.pragma('synchronous = FULL');
  const log = options.log ?? (() => {});
  let closed = false;

  const getSetting = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings');
  const putSetting = db.prepare('INSERT INTO settings(key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at');

  const readSettings = (): Settings => settingsFrom(getSetting.all().map((row) => [row.key, JSON.parse(row.value)] as const));

  const usage = createSqliteUsageRepository(db, clock);
  // Read at open and kept current by update(): the index's flush runs in a tight loop.
  let searchToolOutput = readSettings().searchToolOutput;
  const writer = createSearchWriter(db, SEARCH_SCHEMA);
  const repaired = repairSearch(db, writer.forget);
  if (repaired > 0) log(`[muster] ${repaired} transcript(s) will be read again: their search index did not match the transcript index`);
  const thread = options.searchThread && searchPath !== ':memory:'
    ? createBurstSearchSink({ path: searchPath, spawn: options.searchThread, toolOutput: () => searchToolOutput, log, inline: (ops) => db.transaction(() => writer.apply(ops, searchToolOutput))(), minRows: options.searchThreadMinRows, idleMs: options.searchThreadIdleMs })
    : null;
  const sink: SearchSink = thread ?? { write: (ops) => writer.apply(ops, searchToolOutput), eager: false, waiting: () => 0, flush: () => {} };
  const search = createSqliteSearchRepository(db, thread ? (maxMs) => thread.settle(maxMs) : undefined);
  const transcriptIndex = createSqliteTranscriptIndex(db, {
    usage, search: sink, toolOutput: () => searchToolOutput, intervalMs: options.indexFlushIntervalMs ?? 0, holdMaxRows: options.indexHoldMaxRows, holdMaxChars: options.indexHoldMaxChars, holdLingerMs: options.indexHoldLingerMs, busy: options.indexBusy,
  });
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
        const now = readSettings();
        searchToolOutput = now.searchToolOutput;
        return now;
      },
    },
    transcriptIndex,
    usage,
    search,
    board: createSqliteBoardRepository(db),
    actions: createSqliteActionsRepository(db),
    pages: createSqlitePagesRepository(db),
    launches: createSqliteLaunchesRepository(db),
    goals: createSqliteGoalsRepository(db),
    fleetOutbox: createSqliteOutboxRepository(db, clock),
    worktrees: createSqliteWorktreesRepository(db),
    close() {
      if (closed) return;
      closed = true;
      transcriptIndex.flush();
      thread?.close();
      db.close();
    },
  };
}
