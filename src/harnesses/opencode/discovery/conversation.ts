/**
 * An OpenCode session's conversation from its SQLite store (search and reading): messages in the
 * store's order (`time_created`, then id), each message's parts in id order. Roles: the person's text
 * parts (user), the model's text parts (assistant), each tool part as its tool's name with the paths or
 * command it was given (tool-call) and, once finished, its output or error (tool-result), and a
 * reply's failure other than an abort (system). Reasoning, step and snapshot parts, and text OpenCode
 * adds itself (`synthetic`, `ignored`: an attached file's content, a reminder) are not messages.
 *
 * Incremental: OpenCode updates rows in place (a reply streams into its parts; a prompt gets its diff
 * summary at the turn's end), so the index is not fed by appending. The session's mark remembers the
 * newest update read and where each of its last messages started; a later read starts at the first
 * message updated since (by its own row or one of its parts) and replaces what was indexed from that
 * message's position on. Anything it cannot place (a message deleted by an undo, a change older than
 * the remembered messages) reads the session again from its start. Text, paths and output are pulled
 * with `json_extract` and cut in SQL, never parsed in JS: a huge tool output costs no JS allocation.
 */
import type { Database as Db } from 'better-sqlite3';
import { clipMessageText, MESSAGE_TEXT_MAX, type MessagePage, type MessageRole, type TranscriptMessage } from '../../../core/transcript-message.ts';
import type { IndexedMessages } from '../../../discovery/contract.ts';
import { numberOrNull, stringOrNull, type ConversationMark, type OpenCodeSessionSummary } from './summary.ts';

/** Messages whose first position a mark remembers (a reply and its prompt are re-read, rarely more). */
const TAIL_MAX = 32;
/** Characters of a text, path, command or output read out of SQLite (the message cap, and room to trim). */
const CUT = MESSAGE_TEXT_MAX + 1024;
/** Tool input fields that name files, or what a shell ran (OpenCode's built-in tools). */
const INPUT_KEYS = ['command', 'filePath', 'path', 'pattern', 'url'] as const;

type Row = Record<string, unknown>;

/** The message fields read, in the order of their array (rowOf names them). */
const M_PATHS = ['$.role', '$.time.created', '$.error.name', '$.error.data.message'] as const;
/** The part fields read besides text and output, in the order of their array. */
const P_PATHS = ['$.type', '$.synthetic', '$.ignored', '$.tool', '$.state.status', ...INPUT_KEYS.map((k) => `$.state.input.${k}`), '$.state.error'] as const;
/** Characters kept of an error message, a tool's error or one of its inputs. */
const SHORT = 2000;

const cut = (v: unknown): unknown => (typeof v === 'string' && v.length > SHORT ? v.slice(0, SHORT) : v);

function fields(json: unknown): unknown[] {
  if (typeof json !== 'string') return [];
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** A query row with its JSON arrays spread into named fields (as messagesOf reads them). */
function rowOf(raw: Row): Row {
  const [role, created, err, errmsg] = fields(raw.mj);
  const [type, synthetic, ignored, tool, status, ...rest] = fields(raw.pj);
  const row: Row = {
    mid: raw.mid, mtc: raw.mtc, mtu: raw.mtu, role, created, err, errmsg: cut(errmsg),
    pid: raw.pid, ptu: raw.ptu, type, synthetic, ignored, tool, status, text: raw.text, output: raw.output, error: cut(rest[INPUT_KEYS.length]),
  };
  INPUT_KEYS.forEach((k, i) => (row[`in_${k}`] = cut(rest[i])));
  return row;
}

export interface ConversationUpdate {
  /** Messages for the search index (null: nothing changed). */
  messages: IndexedMessages | null;
  mark: ConversationMark;
}

export interface ConversationReader {
  /** The session's whole conversation. */
  all(sessionId: string): TranscriptMessage[];
  /** What changed since `prev` (undefined: never read), and the new mark. */
  update(sessionId: string, prev: ConversationMark | undefined): ConversationUpdate;
}

export function createConversationReader(db: Db): ConversationReader {
  const partCols = new Set((db.pragma('table_info(part)') as { name: string }[]).map((c) => c.name));
  const msgCols = new Set((db.pragma('table_info(message)') as { name: string }[]).map((c) => c.name));
  // Older schemas without time_updated: a row's creation is its only time.
  const mtu = msgCols.has('time_updated') ? 'time_updated' : 'time_created';
  const ptu = partCols.has('time_updated') ? 'time_updated' : 'time_created';
  // A row's small fields come out of one multi-path json_extract each (a JSON array, parsed in rowOf):
  // one parse of the row's JSON for them all, where an extract per field cost a parse each (2.6 s
  // for 2,000 sessions' 227,000 parts, now about 1 s). Text and output are cut in SQL: never whole in JS.
  const rowsQ = db.prepare(`SELECT m.id AS mid, m.time_created AS mtc, m.${mtu} AS mtu,
      CASE WHEN json_valid(m.data) THEN json_extract(m.data, ${M_PATHS.map((x) => `'${x}'`).join(', ')}) END AS mj,
      p.id AS pid, p.${ptu} AS ptu,
      CASE WHEN json_valid(p.data) THEN json_extract(p.data, ${P_PATHS.map((x) => `'${x}'`).join(', ')}) END AS pj,
      CASE WHEN json_valid(p.data) THEN substr(json_extract(p.data, '$.text'), 1, ${CUT}) END AS text,
      CASE WHEN json_valid(p.data) THEN substr(json_extract(p.data, '$.state.output'), 1, ${CUT}) END AS output
    FROM message m LEFT JOIN part p ON p.message_id = m.id
    WHERE m.session_id = ? AND (m.time_created > ? OR (m.time_created = ? AND m.id >= ?))
    ORDER BY m.time_created, m.id, p.id`);
  const countQ = db.prepare('SELECT count(*) AS n FROM message WHERE session_id = ?');
  const beforeQ = db.prepare('SELECT count(*) AS n FROM message WHERE session_id = ? AND (time_created < ? OR (time_created = ? AND id < ?))');
  const firstChangedQ = db.prepare(`SELECT id, time_created AS tc FROM message WHERE session_id = ? AND (${mtu} >= ?
      OR id IN (SELECT message_id FROM part WHERE session_id = ? AND ${ptu} >= ?)) ORDER BY time_created, id LIMIT 1`);

  /** Messages from (tc, id) on, with where each message started (relative to the first) and the newest update. */
  function readFrom(sessionId: string, tc: number, id: string) {
    const items: TranscriptMessage[] = [];
    const starts: [string, number, number][] = [];
    let newest = 0;
    let current: Row[] = [];
    const close = (): void => {
      const first = current[0];
      if (!first) return;
      starts.push([String(first.mid), numberOrNull(first.mtc) ?? 0, items.length]);
      for (const m of messagesOf(current)) items.push(m);
      current = [];
    };
    for (const raw of rowsQ.iterate(sessionId, tc, tc, id) as Iterable<Row>) {
      const r = rowOf(raw);
      if (current[0] && current[0].mid !== r.mid) close();
      current.push(r);
      newest = Math.max(newest, numberOrNull(r.mtu) ?? 0, numberOrNull(r.ptu) ?? 0);
    }
    close();
    return { items, starts, newest };
  }

  function full(sessionId: string, prev: ConversationMark | undefined): ConversationUpdate {
    const r = readFrom(sessionId, Number.MIN_SAFE_INTEGER, '');
    const mark: ConversationMark = { mark: Math.max(prev?.mark ?? 0, r.newest), count: r.starts.length, total: r.items.length, tail: r.starts.slice(-TAIL_MAX) };
    return { messages: { sessionId, from: 0, position: 0, items: r.items }, mark };
  }

  return {
    all: (sessionId) => readFrom(sessionId, Number.MIN_SAFE_INTEGER, '').items,
    update(sessionId, prev) {
      if (!prev) return full(sessionId, prev);
      const count = (countQ.get(sessionId) as { n: number }).n;
      const first = firstChangedQ.get(sessionId, prev.mark, sessionId, prev.mark) as { id: string; tc: number } | undefined;
      if (!first) return count === prev.count ? { messages: null, mark: prev } : full(sessionId, prev);
      const before = (beforeQ.get(sessionId, first.tc, first.tc, first.id) as { n: number }).n;
      const j = prev.tail.findIndex(([id]) => id === first.id);
      const last = prev.tail[prev.tail.length - 1];
      let kept: [string, number, number][];
      let position: number;
      if (j >= 0 && before === prev.count - (prev.tail.length - j)) {
        kept = prev.tail.slice(0, j);
        position = (prev.tail[j] as [string, number, number])[2];
      } else if (j < 0 && before === prev.count && (!last || last[1] < first.tc || (last[1] === first.tc && last[0] < first.id))) {
        kept = prev.tail;
        position = prev.total;
      } else return full(sessionId, prev);
      const r = readFrom(sessionId, first.tc, first.id);
      const tail = [...kept, ...r.starts.map(([id, tc, at]): [string, number, number] => [id, tc, position + at])].slice(-TAIL_MAX);
      const mark: ConversationMark = { mark: Math.max(prev.mark, r.newest), count: before + r.starts.length, total: position + r.items.length, tail };
      return { messages: { sessionId, from: 0, position, items: r.items }, mark };
    },
  };
}

/**
 * New sessions' whole conversations, read in the caller's snapshot (the bulk scan and the cold fold):
 * each summary with its search mark, and the messages for the search index by session id.
 */
export function withConversations(db: Db, sessions: readonly OpenCodeSessionSummary[]): { sessions: OpenCodeSessionSummary[]; messages: Map<string, IndexedMessages> } {
  const reader = createConversationReader(db);
  const messages = new Map<string, IndexedMessages>();
  const out = sessions.map((s) => {
    const m = reader.update(s.id, undefined);
    if (m.messages) messages.set(s.id, m.messages);
    return { ...s, search: m.mark };
  });
  return { sessions: out, messages };
}

/** A page of the session's conversation, positions as the index gave them; null when the store has no such session. */
export function pageOpenCodeConversation(db: Db, sessionId: string, from: number, limit: number): MessagePage | null {
  if (!db.prepare('SELECT 1 FROM session WHERE id = ?').get(sessionId)) return null;
  const all = createConversationReader(db).all(sessionId);
  const messages = all.slice(from, from + limit).map((m, i) => ({ ...m, position: from + i }));
  const end = from + messages.length;
  return { messages, total: all.length, next: end < all.length ? end : null };
}

function push(out: TranscriptMessage[], role: MessageRole, text: unknown, at: string | null): void {
  const t = typeof text === 'string' ? clipMessageText(text) : '';
  if (t !== '') out.push({ role, text: t, at });
}

/** The messages of one store message, from its rows (one per part, in part order). */
export function messagesOf(rows: readonly Row[]): TranscriptMessage[] {
  const m = rows[0];
  const out: TranscriptMessage[] = [];
  if (!m || (m.role !== 'user' && m.role !== 'assistant')) return out;
  const ms = numberOrNull(m.created) ?? numberOrNull(m.mtc);
  const at = ms === null ? null : new Date(ms).toISOString();
  for (const p of rows) {
    if (p.pid === null) continue; // a message without parts yet
    if (p.type === 'text' && !p.synthetic && !p.ignored) push(out, m.role, p.text, at);
    else if (p.type === 'tool') {
      const named = INPUT_KEYS.map((k) => stringOrNull(p[`in_${k}`])).filter((v): v is string => v !== null && v.trim() !== '');
      push(out, 'tool-call', [stringOrNull(p.tool) ?? 'tool', ...named].join(' '), at);
      if (p.status === 'completed') push(out, 'tool-result', stringOrNull(p.output) ?? '(no output)', at);
      else if (p.status === 'error') push(out, 'tool-result', stringOrNull(p.error) ?? '(failed)', at);
    }
  }
  const err = stringOrNull(m.err);
  // An abort is the person's own doing (Esc, SIGTERM), not something the reply said.
  if (err !== null && err !== 'MessageAbortedError') push(out, 'system', [err, stringOrNull(m.errmsg)].filter(Boolean).join(': '), at);
  return out;
}
