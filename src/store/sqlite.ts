/**
 * SQLite implementation of the store (better-sqlite3): WAL so readers never block the writer,
 * busy_timeout so a second connection waits instead of failing, synchronous=FULL so an answer
 * committed before a kill -9 or power loss is still there after it.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync } from 'node:fs';
import { MusterError } from '../errors/index.ts';
import type { Harness } from '../core/session.ts';
import type { TranscriptIndex, TranscriptIndexEntry } from '../discovery/contract.ts';
import type { UsageRecord } from '../core/usage-record.ts';
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
import { createSqliteUsageRepository, type SqliteUsage } from './usage.ts';
import type { UsageDelta } from '../usage/types.ts';
import { createSqliteSearchRepository, type PendingMessages, type SqliteSearch } from './search.ts';

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
}

export function openSqliteStore(options: SqliteStoreOptions): Store {
  const clock = options.clock ?? Date.now;
  let db: Database.Database;
  try {
    const fresh = options.path !== ':memory:' && !existsSync(options.path);
    db = new Database(options.path);
    if (fresh) chmodSync(options.path, 0o600);
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
  const schemaVersion = migrate(db);
  db.pragma('synchronous = FULL');
  let closed = false;

  const getSetting = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings');
  const putSetting = db.prepare('INSERT INTO settings(key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at');

  const readSettings = (): Settings => settingsFrom(getSetting.all().map((row) => [row.key, JSON.parse(row.value)] as const));

  const usage = createSqliteUsageRepository(db, clock);
  // Read at open and kept current by update(): the index's flush runs in a tight loop.
  let searchToolOutput = readSettings().searchToolOutput;
  const search = createSqliteSearchRepository(db, { includeToolOutput: () => searchToolOutput });
  const transcriptIndex = createSqliteTranscriptIndex(db, usage, search, () => searchToolOutput, options.indexFlushIntervalMs ?? 0);
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
      db.close();
    },
  };
}

interface IndexRow { path: string; harness: string; size: number; mtime_ms: number; offset: number; summary: string }

function toEntry(r: IndexRow): TranscriptIndexEntry {
  return { path: r.path, harness: r.harness as Harness, size: r.size, mtimeMs: r.mtime_ms, offset: r.offset, summary: JSON.parse(r.summary) as unknown };
}

/**
 * The daemon's index commits are spaced this far apart while writes keep coming: a commit costs about as
 * much as the writes of a cold index's batch (WAL pages of every B-tree the batch touched, FTS5's segment
 * flush), and a cold index on the worker threads hands over a batch every few ms...
 */
export const DEFAULT_INDEX_FLUSH_INTERVAL_MS = 500;

/**
 * ...but a commit never gathers more than about this many usage records and messages: its write holds
 * the daemon's thread (FTS5 indexes about 10 MB of text a second here), and a board waiting on a
 * half-second commit is worse than a few more commits. Measured on a 1.4 GB Claude corpus through the
 * worker pool, three runs each way alternating: the daemon thread's CPU 1.39-1.51 s → 1.02-1.18 s
 * (discovery alone) and 3.16-3.40 → 3.01-3.14 s (with search); its longest stall 95-136 → 134-174 ms and
 * 131-158 → 213-279 ms. Without this cap (500 ms alone) the longest stall with search was 921 ms.
 */
const MAX_PENDING_ROWS = 8192;

/**
 * The transcript index, cached in memory (loaded with one query on first use, so a warm start with
 * thousands of files does one read instead of one per file) with writes batched into one transaction
 * (a cold scan's thousands of puts cost one commit, not thousands): the first write after a quiet
 * spell commits on the next tick, later ones once `intervalMs` has passed since the last commit. Gets
 * and lists answer from memory meanwhile. Losing the last interval of index progress in a crash only
 * means re-reading those bytes.
 */
function createSqliteTranscriptIndex(db: Database.Database, usage: SqliteUsage, search: SqliteSearch, toolOutput: () => boolean, intervalMs: number): TranscriptIndex & { flush(): void } {
  const put = db.prepare('INSERT OR REPLACE INTO transcript_index(path, harness, size, mtime_ms, offset, summary) VALUES (?, ?, ?, ?, ?, ?)');
  const listOf = db.prepare<[string], IndexRow>('SELECT * FROM transcript_index WHERE harness = ?');
  const del = db.prepare('DELETE FROM transcript_index WHERE path = ?');
  let byPath: Map<string, TranscriptIndexEntry> | null = null;
  const dirty = new Map<string, TranscriptIndexEntry | null>();
  // Records of every put since the last flush (two puts of one path in a tick each bring their own).
  let records: UsageRecord[] = [];
  // Messages of every put since the last flush, in put order (a rewrite's reset must precede what follows it).
  let texts: PendingMessages[] = [];
  let scheduled = false;
  let timer: NodeJS.Timeout | null = null;
  let lastFlush = -Infinity;
  /** Usage records and messages waiting: past MAX_PENDING_ROWS they are written on the next tick. */
  let pendingRows = 0;

  const load = (): Map<string, TranscriptIndexEntry> => {
    if (byPath) return byPath;
    byPath = new Map();
    for (const r of db.prepare<[], IndexRow>('SELECT * FROM transcript_index').iterate()) byPath.set(r.path, toEntry(r));
    return byPath;
  };
  const flush = (): void => {
    scheduled = false;
    if (timer) clearTimeout(timer);
    timer = null;
    if (dirty.size === 0 && records.length === 0 && texts.length === 0) return;
    const batch = [...dirty];
    const written = records;
    const indexed = texts;
    pendingRows = 0;
    dirty.clear();
    records = [];
    texts = [];
    let deltas: UsageDelta[] = [];
    // Without the fsync of synchronous=FULL (5 ms and more each on a busy disk, which a cold index
    // of thousands of files pays per batch): a crash may lose the last index writes, which only means
    // reading those bytes again, and the next FULL commit (a page, a goal) makes them durable with it.
    db.pragma('synchronous = NORMAL');
    try {
      db.transaction(() => {
        deltas = usage.write(written);
        search.write(indexed);
        for (const [path, e] of batch) {
          if (e) put.run(e.path, e.harness, e.size, e.mtimeMs, e.offset, JSON.stringify(e.summary ?? null));
          else {
            del.run(path);
            search.forget(path);
          }
        }
      })();
    } finally {
      db.pragma('synchronous = FULL');
      lastFlush = performance.now();
    }
    usage.notify(deltas);
  };
  const schedule = (): void => {
    const full = pendingRows >= MAX_PENDING_ROWS;
    if (scheduled && !(full && timer)) return;
    if (timer) clearTimeout(timer);
    timer = null;
    scheduled = true;
    const wait = full ? 0 : lastFlush + intervalMs - performance.now();
    if (wait > 0) timer = setTimeout(flush, wait);
    else setImmediate(flush);
  };
  return {
    get: (path) => load().get(path),
    put(e) {
      const { usage: fresh, messages, ...entry } = e;
      // One by one: a first read of a long transcript brings more records than spread arguments allow.
      if (fresh) for (const r of fresh) records.push(r);
      if (messages) texts.push({ path: entry.path, harness: entry.harness, messages });
      pendingRows += (fresh?.length ?? 0) + (messages?.items.length ?? 0);
      load().set(entry.path, entry);
      dirty.set(entry.path, entry);
      schedule();
    },
    remove(path) {
      load().delete(path);
      dirty.set(path, null);
      schedule();
    },
    // Before the first get/put nothing is cached, so only that harness's rows are read: a source that
    // lists its entries while it is being created does not load (and parse) every other harness's.
    list: (harness) => (byPath ? [...byPath.values()].filter((e) => e.harness === harness) : listOf.all(harness).map(toEntry)),
    wantsToolOutput: toolOutput,
    flush,
  };
}
