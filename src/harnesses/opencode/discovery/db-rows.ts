/**
 * What both readers of OpenCode's store share (the per-session one of db-reader.ts, the bulk one of
 * db-bulk.ts): the session columns read, the two part lookups (a reply's running tool, the first
 * prompt while the title is a placeholder), and the session row turned into a summary.
 */
import type { Database as Db } from 'better-sqlite3';
import {
  chooseTitle, count, isPlaceholderTitle, numberOrNull, parseSessionModel, stringOrNull,
  type MessageFacts, type OpenCodeSessionSummary, type RunningTool,
} from './summary.ts';

export type SessionRow = Record<string, unknown>;

const SESSION_COLUMNS = ['id', 'directory', 'title', 'model', 'cost', 'tokens_input', 'tokens_output', 'tokens_reasoning',
  'tokens_cache_read', 'tokens_cache_write', 'time_created', 'time_updated'];

/** The columns of this store's session table (none when it has no such table). */
export function sessionTableColumns(db: Db): Set<string> {
  return new Set((db.pragma('table_info(session)') as { name: string }[]).map((c) => c.name));
}

/** The session columns read, of those this schema has. */
export function sessionColumns(cols: Set<string>): string[] {
  return SESSION_COLUMNS.filter((c) => cols.has(c));
}

export interface PartReader {
  /** The newest tool call still running or pending in message `messageId`. */
  runningTool(messageId: string): RunningTool | null;
  /** The first text part of the session's first prompt (400 chars at most). */
  firstPrompt(sessionId: string): string | null;
}

export function createPartReader(db: Db): PartReader {
  const toolQ = db.prepare(`SELECT json_extract(data, '$.tool') AS tool, json_extract(data, '$.state.title') AS title,
      substr(json_extract(data, '$.state.input.command'), 1, 200) AS command, json_extract(data, '$.state.time.start') AS start
    FROM part WHERE message_id = ? AND json_valid(data) AND json_extract(data, '$.type') = 'tool'
      AND json_extract(data, '$.state.status') IN ('running', 'pending') ORDER BY id DESC LIMIT 1`);
  const firstPromptQ = db.prepare(`SELECT substr(json_extract(p.data, '$.text'), 1, 400) AS text FROM message m
    JOIN part p ON p.message_id = m.id
    WHERE m.session_id = ? AND json_valid(m.data) AND json_extract(m.data, '$.role') = 'user'
      AND json_valid(p.data) AND json_extract(p.data, '$.type') = 'text'
    ORDER BY m.time_created, m.id, p.id LIMIT 1`);
  return {
    runningTool(messageId) {
      const r = toolQ.get(messageId) as SessionRow | undefined;
      if (!r) return null;
      return { tool: stringOrNull(r.tool) ?? 'tool', title: stringOrNull(r.title) ?? stringOrNull(r.command), startMs: numberOrNull(r.start) };
    },
    firstPrompt: (sessionId) => stringOrNull((firstPromptQ.get(sessionId) as SessionRow | undefined)?.text),
  };
}

export interface SummaryInputs {
  lastUser: MessageFacts | null;
  lastAssistant: MessageFacts | null;
  /** Assistant sums (i, o, r, cr, cw, cost) for a schema without token or cost columns on the session; else undefined. */
  sums: Record<string, unknown> | undefined;
  parts: PartReader;
}

/** A session row and its last turn as the source's summary (without `usageMark`). */
export function toSummary(row: SessionRow, cols: Set<string>, key: string, x: SummaryInputs): OpenCodeSessionSummary {
  const id = String(row.id);
  const runningTool = x.lastAssistant ? x.parts.runningTool(x.lastAssistant.id) : null;
  const title = stringOrNull(row.title);
  // The first prompt is looked up only while OpenCode's title is still its placeholder.
  const firstPrompt = isPlaceholderTitle(title) ? x.parts.firstPrompt(id) : null;
  const sums = x.sums;
  const t = cols.has('tokens_input') ? row : { tokens_input: sums?.i, tokens_output: sums?.o, tokens_reasoning: sums?.r, tokens_cache_read: sums?.cr, tokens_cache_write: sums?.cw };
  return {
    id, store: 'db', key,
    title: chooseTitle(title, firstPrompt),
    directory: stringOrNull(row.directory),
    model: parseSessionModel(row.model) ?? x.lastAssistant?.model ?? null,
    // Reasoning tokens are billed as output; Muster's TokenCounts has no separate bucket.
    tokens: {
      input: count(t.tokens_input), output: count(t.tokens_output) + count(t.tokens_reasoning),
      cacheRead: count(t.tokens_cache_read), cacheWrite: count(t.tokens_cache_write),
    },
    costUsd: cols.has('cost') ? numberOrNull(row.cost) : numberOrNull(sums?.cost),
    createdMs: numberOrNull(row.time_created),
    updatedMs: numberOrNull(row.time_updated),
    lastUser: x.lastUser, lastAssistant: x.lastAssistant, runningTool,
  };
}
