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
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { assertSqliteFilesRegular } from '../../../discovery/regular-file/index.ts';
import {
  chooseTitle, count, isPlaceholderTitle, numberOrNull, parseSessionModel, stringOrNull,
  type MessageFacts, type OpenCodeSessionSummary, type RunningTool,
} from './summary.ts';
import { createMessageUsageReader } from './usage-records.ts';
import { createConversationReader } from './conversation.ts';
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

/**
 * Opens the store read-only; throws when it is missing or unreadable, or when it or a side file is not
 * a regular file (NotRegularFileError: SQLite would block opening a FIFO). The caller counts the failure.
 */
export function openOpenCodeDb(dbPath: string): Db {
  assertSqliteFilesRegular(dbPath);
  // timeout: wait at most 250 ms on a busy store (WAL recovery) rather than better-sqlite3's 5 s default.
  return new Database(dbPath, { readonly: true, fileMustExist: true, timeout: 250 });
}

/** Scans the store; sessions whose change key is unchanged are taken from `previous` untouched. */
export function scanOpenCodeDb(db: Db, previous: ReadonlyMap<string, OpenCodeSessionSummary>): DbScanResult {
  const cols = new Set((db.pragma('table_info(session)') as { name: string }[]).map((c) => c.name));
  if (cols.size === 0) return { sessions: new Map(), reread: 0, malformed: 0, usage: [], messages: new Map() };
  // Child sessions (parent_id set) are the `task` tool's subagents: they run inside their parent's turn
  // and process, so the parent stands for them on the board.
  const topLevel = cols.has('parent_id') ? 'WHERE s.parent_id IS NULL' : '';
  const keys = db.prepare(
    `SELECT s.id AS id, s.time_updated AS tu,
       (SELECT m.id || ':' || m.time_updated FROM message m WHERE m.session_id = s.id
        ORDER BY m.time_created DESC, m.id DESC LIMIT 1) AS last
     FROM session s ${topLevel}`,
  ).all() as { id: string; tu: unknown; last: string | null }[];

  const out: DbScanResult = { sessions: new Map(), reread: 0, malformed: 0, usage: [], messages: new Map() };
  const reader = createRowReader(db, cols);
  const usage = createMessageUsageReader(db);
  const conversation = createConversationReader(db);
  db.exec('BEGIN'); // one snapshot for the whole scan, so a session and its messages agree
  try {
    for (const k of keys) {
      const key = `${String(k.tu)}|${k.last ?? ''}`;
      const prev = previous.get(k.id);
      // A summary without a search mark predates search: its session is read once more, whole.
      if (prev && prev.store === 'db' && prev.key === key && prev.search) { out.sessions.set(k.id, prev); continue; }
      const s = reader.read(k.id, key, out);
      if (!s) continue;
      const u = usage.read(k.id, prev?.store === 'db' ? (prev.usageMark ?? 0) : 0);
      for (const r of u.records) out.usage.push(r);
      const c = conversation.update(k.id, prev?.store === 'db' ? prev.search : undefined);
      if (c.messages) out.messages.set(k.id, c.messages);
      out.sessions.set(k.id, { ...s, usageMark: u.mark, search: c.mark });
      out.reread++;
    }
  } finally {
    db.exec('COMMIT');
  }
  return out;
}

type Row = Record<string, unknown>;
const MSG_FIELDS = `id, time_created AS tc, json_valid(data) AS ok,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.role') END AS role,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.time.created') END AS created,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.time.completed') END AS completed,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.error.name') END AS error,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.finish') END AS finish,
  CASE WHEN json_valid(data) THEN json_extract(data, '$.modelID') END AS model`;
/** How many newest messages are looked at before a targeted search for the last prompt. */
const RECENT = 50;

function createRowReader(db: Db, cols: Set<string>) {
  const want = ['id', 'directory', 'title', 'model', 'cost', 'tokens_input', 'tokens_output', 'tokens_reasoning',
    'tokens_cache_read', 'tokens_cache_write', 'time_created', 'time_updated'].filter((c) => cols.has(c));
  const sessionQ = db.prepare(`SELECT ${want.join(', ')} FROM session WHERE id = ?`);
  const recentQ = db.prepare(`SELECT ${MSG_FIELDS} FROM message WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT ${RECENT}`);
  const lastUserQ = db.prepare(`SELECT ${MSG_FIELDS} FROM message WHERE session_id = ? AND json_valid(data)
    AND json_extract(data, '$.role') = 'user' ORDER BY time_created DESC, id DESC LIMIT 1`);
  const toolQ = db.prepare(`SELECT json_extract(data, '$.tool') AS tool, json_extract(data, '$.state.title') AS title,
      substr(json_extract(data, '$.state.input.command'), 1, 200) AS command, json_extract(data, '$.state.time.start') AS start
    FROM part WHERE message_id = ? AND json_valid(data) AND json_extract(data, '$.type') = 'tool'
      AND json_extract(data, '$.state.status') IN ('running', 'pending') ORDER BY id DESC LIMIT 1`);
  const firstPromptQ = db.prepare(`SELECT substr(json_extract(p.data, '$.text'), 1, 400) AS text FROM message m
    JOIN part p ON p.message_id = m.id
    WHERE m.session_id = ? AND json_valid(m.data) AND json_extract(m.data, '$.role') = 'user'
      AND json_valid(p.data) AND json_extract(p.data, '$.type') = 'text'
    ORDER BY m.time_created, m.id, p.id LIMIT 1`);
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
    const runningTool = lastAssistant ? toTool(toolQ.get(lastAssistant.id) as Row | undefined) : null;
    const title = stringOrNull(row.title);
    // The first prompt is looked up only while OpenCode's title is still its placeholder.
    const firstPrompt = isPlaceholderTitle(title) ? stringOrNull((firstPromptQ.get(id) as Row | undefined)?.text) : null;
    const hasTokens = cols.has('tokens_input');
    const sums = hasTokens && cols.has('cost') ? undefined : (sumQ.get(id) as Row | undefined);
    const t = hasTokens ? row : { tokens_input: sums?.i, tokens_output: sums?.o, tokens_reasoning: sums?.r, tokens_cache_read: sums?.cr, tokens_cache_write: sums?.cw };
    return {
      id, store: 'db', key,
      title: chooseTitle(title, firstPrompt),
      directory: stringOrNull(row.directory),
      model: parseSessionModel(row.model) ?? lastAssistant?.model ?? null,
      // Reasoning tokens are billed as output; Muster's TokenCounts has no separate bucket.
      tokens: {
        input: count(t.tokens_input), output: count(t.tokens_output) + count(t.tokens_reasoning),
        cacheRead: count(t.tokens_cache_read), cacheWrite: count(t.tokens_cache_write),
      },
      costUsd: cols.has('cost') ? numberOrNull(row.cost) : numberOrNull(sums?.cost),
      createdMs: numberOrNull(row.time_created),
      updatedMs: numberOrNull(row.time_updated),
      lastUser, lastAssistant, runningTool,
    };
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

function toTool(r: Row | undefined): RunningTool | null {
  if (!r) return null;
  const tool = stringOrNull(r.tool) ?? 'tool';
  return { tool, title: stringOrNull(r.title) ?? stringOrNull(r.command), startMs: numberOrNull(r.start) };
}
