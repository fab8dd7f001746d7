/**
 * Reads OpenCode's SQLite store (`opencode.db`) read-only and incrementally.
 *
 * Why this shape:
 * - The handle is opened read-only, with a short busy timeout, for one scan and closed right after: a WAL
 *   reader never blocks OpenCode's writer, and closing promptly lets its checkpoints proceed.
 * - Change detection per session is `session.time_updated` plus the id and `time_updated` of its newest
 *   message (one index seek each): OpenCode does not always bump the session row when a message
 *   completes (observed: an aborted reply completed 3 s after the session's time_updated).
 * - Message and part JSON is never parsed in JS: `json_extract` pulls the few fields we show, so a huge
 *   tool output or diff summary costs no JS allocation. `json_valid` guards every extract (a malformed
 *   row would otherwise fail the whole query); malformed rows are skipped and counted.
 */
import { createRequire } from 'node:module';
import type { Database as Db } from 'better-sqlite3';
import { assertSqliteFilesRegular, sqliteAddon } from '../../../discovery/regular-file/index.ts';
import { RECENT, createBulkReader } from './db-bulk.ts';
import { createPartReader, sessionColumns, sessionTableColumns, toSummary } from './db-rows.ts';
import { numberOrNull, stringOrNull, type ConversationMark, type MessageFacts, type OpenCodeSessionSummary } from './summary.ts';
import { createMessageUsageReader } from './usage-records.ts';
import { createConversationReader, withConversations } from './conversation.ts';
import type { IndexedMessages } from '../../../discovery/contract.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';

export interface DbScanResult {
  /** Every top-level session now in the store, re-read or carried over. */
  sessions: Map<string, OpenCodeSessionSummary>;
  /** How many sessions were re-read (changed or new). */
  reread: number;
  /** Malformed message/part rows skipped. */
  malformed: number;
  /** Usage records of the messages read this scan (usage-records.ts). */
  usage: UsageRecord[];
  /** Messages for the search index of the sessions whose conversation changed, by session id (conversation.ts). */
  messages: Map<string, IndexedMessages>;
}

type DatabaseClass = typeof import('better-sqlite3');
let databaseClass: DatabaseClass | undefined;

/**
 * better-sqlite3, loaded at the first open: the cold index's worker thread holds this fold beside the
 * transcript folds, and loading the native driver (~15 ms) is wasted on a home without OpenCode.
 */
function sqliteDriver(): DatabaseClass {
  return (databaseClass ??= createRequire(import.meta.url)('better-sqlite3') as DatabaseClass);
}

/**
 * Opens the store read-only; throws when it is missing or unreadable, or when it or a side file is not
 * a regular file (NotRegularFileError: SQLite would block opening a FIFO). The caller counts the failure.
 */
export function openOpenCodeDb(dbPath: string): Db {
  assertSqliteFilesRegular(dbPath);
  // timeout: wait at most 250 ms on a busy store (WAL recovery) rather than better-sqlite3's 5 s default.
  const Database = sqliteDriver();
  return new Database(dbPath, { readonly: true, fileMustExist: true, timeout: 250, nativeBinding: sqliteAddon() });
}

export interface SessionKey {
  id: string;
  /** Change key: the session's time_updated and its newest message's id and time_updated. */
  key: string;
  /** time_updated as a number (0 when unreadable), to read the newest first. */
  updated: number;
}

/**
 * Every top-level session's change key (one index seek each). Child sessions (parent_id set) are the
 * `task` tool's subagents: they run inside their parent's turn and process, so the parent stands for them.
 */
export function readSessionKeys(db: Db, cols: Set<string> = sessionTableColumns(db)): SessionKey[] {
  if (cols.size === 0) return [];
  const topLevel = cols.has('parent_id') ? 'WHERE s.parent_id IS NULL' : '';
  const rows = db.prepare(
    `SELECT s.id AS id, s.time_updated AS tu,
       (SELECT m.id || ':' || m.time_updated FROM message m WHERE m.session_id = s.id
        ORDER BY m.time_created DESC, m.id DESC LIMIT 1) AS last
     FROM session s ${topLevel}`,
  ).all() as { id: string; tu: unknown; last: string | null }[];
  return rows.map((k) => ({ id: k.id, key: `${String(k.tu)}|${k.last ?? ''}`, updated: numberOrNull(k.tu) ?? 0 }));
}

export interface ScanOptions {
  /** From this many new sessions (none in `previous`) on, they are read in one pass (db-bulk.ts). Default: 16. */
  bulkMin?: number;
  /**
   * Sessions whose conversation a cold index's second pass is reading (cold.ts): one unchanged since its
   * first pass is carried over without a search mark, not read again here. Default: none.
   */
  searchPending?: { has(id: string): boolean };
}

/** Scans the store; sessions whose change key is unchanged are taken from `previous` untouched. */
export function scanOpenCodeDb(db: Db, previous: ReadonlyMap<string, OpenCodeSessionSummary>, options: ScanOptions = {}): DbScanResult {
  const cols = sessionTableColumns(db);
  if (cols.size === 0) return { sessions: new Map(), reread: 0, malformed: 0, usage: [], messages: new Map() };
  const keys = readSessionKeys(db, cols);
  const out: DbScanResult = { sessions: new Map(), reread: 0, malformed: 0, usage: [], messages: new Map() };
  // New sessions need every message read (their usage from the first on): many of them are read in one
  // pass. A known session that changed needs only its newest messages and its usage since its mark.
  const fresh: Changed = [];
  const known: Changed = [];
  for (const { id, key } of keys) {
    const prev = previous.get(id);
    // A summary without a search mark predates search (or awaits a cold index's second pass): its
    // session is read once more, whole.
    if (prev && prev.store === 'db' && prev.key === key && (prev.search || options.searchPending?.has(id))) out.sessions.set(id, prev);
    else if (prev?.store === 'db') known.push({ id, key, mark: prev.usageMark ?? 0, search: prev.search });
    else fresh.push({ id, key, mark: 0 });
  }
  db.exec('BEGIN'); // one snapshot for the whole scan, so a session and its messages agree
  try {
    if (fresh.length >= (options.bulkMin ?? BULK_MIN)) readBulk(db, cols, fresh, out);
    else readEach(db, cols, fresh, out);
    readEach(db, cols, known, out);
  } finally {
    db.exec('COMMIT');
  }
  return out;
}

/** Every top-level session's id, the most recently updated first. */
export function readSessionIds(db: Db, cols: Set<string> = sessionTableColumns(db)): string[] {
  if (cols.size === 0) return [];
  const topLevel = cols.has('parent_id') ? 'WHERE parent_id IS NULL' : '';
  return db.prepare(`SELECT id FROM session ${topLevel} ORDER BY time_updated DESC, id`).pluck().all() as string[];
}

/** From this many new sessions on, one pass over their messages beats five queries each. */
const BULK_MIN = 16;

/** A session to read: its change key, its usage mark and how far the search index has it (absent: nowhere). */
type Changed = { id: string; key: string; mark: number; search?: ConversationMark }[];

function readEach(db: Db, cols: Set<string>, changed: Changed, out: DbScanResult): void {
  const reader = createRowReader(db, cols);
  const usage = createMessageUsageReader(db);
  const conversation = createConversationReader(db);
  for (const c of changed) {
    const s = reader.read(c.id, c.key, out);
    if (!s) continue;
    const u = usage.read(c.id, c.mark);
    for (const r of u.records) out.usage.push(r);
    const m = conversation.update(c.id, c.search);
    if (m.messages) out.messages.set(c.id, m.messages);
    out.sessions.set(c.id, { ...s, usageMark: u.mark, search: m.mark });
    out.reread++;
  }
}

/**
 * The bulk reader's summaries under the key the key query gave (a session that changed between that
 * query and this snapshot is read as it is now, and read again at the next scan, as readEach does).
 */
function readBulk(db: Db, cols: Set<string>, changed: Changed, out: DbScanResult): void {
  const r = createBulkReader(db, cols).read(changed.map((c) => c.id), new Map(changed.map((c) => [c.id, c.mark])));
  const keyOf = new Map(changed.map((c) => [c.id, c.key]));
  const c = withConversations(db, r.sessions); // new sessions: their whole conversation
  for (const s of c.sessions) {
    out.sessions.set(s.id, { ...s, key: keyOf.get(s.id) ?? s.key });
    out.reread++;
  }
  for (const [id, m] of c.messages) out.messages.set(id, m);
  for (const u of r.usage) out.usage.push(u);
  out.malformed += r.malformed;
}

type Row = Record<string, unknown>;
const MSG_FIELDS = `id, time_created AS tc, json_valid(data) AS ok,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.role') END AS role,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.time.created') END AS created,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.time.completed') END AS completed,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.error.name') END AS error,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.finish') END AS finish,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.modelID') END AS model`;

function createRowReader(db: Db, cols: Set<string>) {
  const sessionQ = db.prepare(`SELECT ${sessionColumns(cols).join(', ')} FROM session WHERE id = ?`);
  const recentQ = db.prepare(`SELECT ${MSG_FIELDS} FROM message WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT ${RECENT}`);
  const lastUserQ = db.prepare(`SELECT ${MSG_FIELDS} FROM message WHERE session_id = ? AND json_valid(data)
    AND json_extract(data, '$.role') = 'user' ORDER BY time_created DESC, id DESC LIMIT 1`);
  const parts = createPartReader(db);
  // Older schemas kept tokens and cost only on assistant messages.
  const sumQ = db.prepare(`SELECT sum(json_extract(data, '$.tokens.input')) AS i, sum(json_extract(data, '$.tokens.output')) AS o,
      sum(json_extract(data, '$.tokens.reasoning')) AS r, sum(json_extract(data, '$.tokens.cache.read')) AS cr,
      sum(json_extract(data, '$.tokens.cache.write')) AS cw, sum(json_extract(data, '$.cost')) AS cost
    FROM message WHERE session_id = ? AND json_valid(data) AND json_extract(data, '$.role') = 'assistant'`);

  function read(id: string, key: string, acc: DbScanResult): OpenCodeSessionSummary | undefined {
    const row = sessionQ.get(id) as Row | undefined;
    if (!row) return undefined; // deleted between the key query and now
    let lastUser: MessageFacts | null = null;
    let lastAssistant: MessageFacts | null = null;
    for (const m of recentQ.all(id) as Row[]) {
      if (!m.ok) { acc.malformed++; continue; }
      const f = toFacts(m);
      if (!f) continue;
      if (f.role === 'user') lastUser ??= f;
      else lastAssistant ??= f;
      if (lastUser && lastAssistant) break;
    }
    if (!lastUser) {
      const u = lastUserQ.get(id) as Row | undefined;
      lastUser = u ? toFacts(u) : null;
    }
    const sums = cols.has('tokens_input') && cols.has('cost') ? undefined : (sumQ.get(id) as Row | undefined);
    return toSummary(row, cols, key, { lastUser, lastAssistant, sums, parts });
  }
  return { read };
}

function toFacts(m: Row): MessageFacts | null {
  const role = m.role;
  if (role !== 'user' && role !== 'assistant') return null;
  return {
    id: String(m.id), role,
    createdMs: numberOrNull(m.created) ?? numberOrNull(m.tc) ?? 0,
    completedMs: numberOrNull(m.completed),
    error: stringOrNull(m.error),
    finish: stringOrNull(m.finish),
    model: stringOrNull(m.model),
  };
}
