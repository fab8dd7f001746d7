/**
 * The running summary of one pi/omp session file, folded record by record. It is JSON-serialisable
 * and stored in the TranscriptIndex beside the byte offset reached, so a later scan resumes from the
 * saved summary and only folds the new lines. omp writes pi's format plus a few records of its own
 * (a padded `title` line, `title_change`, `custom` `session_exit` / `tool_execution_start`), so one
 * fold serves both harnesses.
 */
import type { TokenCounts } from '../../../core/session.ts';
import { emptyTokens } from '../../../core/session.ts';
import { isUuid } from '../../../core/ids.ts';
import { asObj, count, isoTime, laterIso, num, oneLine, str, textOf } from './records.ts';
import type { Obj } from './records.ts';

/** What the last status-relevant record was. */
export type LastKind = 'none' | 'user' | 'assistant' | 'toolResult' | 'toolStart' | 'exit';

/** A tool call the model made whose result is not in the file yet. */
export interface PendingTool {
  id: string;
  name: string;
  /** A short argument worth showing (omp `ask`: the question), else null. */
  detail: string | null;
}

export interface SessionExit {
  /** omp: `dispose` (exit, -p end, RPC stdin close) or `sigterm`. */
  reason: string;
  /** omp: `normal` or `signal`. */
  kind: string;
  at: string | null;
}

export interface TranscriptSummary {
  id: string | null;
  cwd: string | null;
  startedAt: string | null;
  lastActivityAt: string | null;
  /** Explicit title: pi `session_info.name`, omp `title` / `title_change`. */
  title: string | null;
  /** First user prompt, one line; the title when none was set. */
  firstPrompt: string | null;
  model: string | null;
  tokens: TokenCounts;
  /** Sum of the `usage.cost.total` the records carried; null when no record carried a cost. */
  costUsd: number | null;
  /** User and assistant messages (tool results are not counted). */
  messages: number;
  toolCalls: number;
  last: { kind: LastKind; at: string | null; stopReason: string | null };
  /** When the running turn began (its user message); null between turns. */
  turnSince: string | null;
  pending: PendingTool[];
  /** omp `session_exit` records: one per process that stopped using the session cleanly. */
  exits: number;
  lastExit: SessionExit | null;
  linesParsed: number;
  linesSkipped: number;
}

export function emptySummary(): TranscriptSummary {
  return {
    id: null, cwd: null, startedAt: null, lastActivityAt: null, title: null, firstPrompt: null, model: null,
    tokens: emptyTokens(), costUsd: null, messages: 0, toolCalls: 0,
    last: { kind: 'none', at: null, stopReason: null }, turnSince: null, pending: [],
    exits: 0, lastExit: null, linesParsed: 0, linesSkipped: 0,
  };
}

/** Folds one parsed record into `s` (mutates and returns it). Unknown records only move the activity time. */
export function applyRecord(s: TranscriptSummary, record: unknown): TranscriptSummary {
  const r = asObj(record);
  if (!r) return s;
  const at = isoTime(r['timestamp']);
  s.lastActivityAt = laterIso(s.lastActivityAt, at);
  switch (r['type']) {
    case 'session': applyHeader(s, r, at); break;
    case 'title': setTitle(s, r['title']); s.lastActivityAt = laterIso(s.lastActivityAt, isoTime(r['updatedAt'])); break;
    case 'title_change': setTitle(s, r['title']); break;
    case 'session_info': setTitle(s, r['name']); break;
    case 'model_change': applyModelChange(s, r); break;
    case 'message': applyMessage(s, asObj(r['message']), at ?? null); break;
    case 'custom': applyCustom(s, r, at ?? null); break;
    default: break;
  }
  return s;
}

/**
 * A tool result noted from the head of its line only (see `toolResultFromHead`): tool outputs can be
 * megabytes and Muster never shows them, so they are not JSON.parsed.
 */
export function applyToolResult(s: TranscriptSummary, toolCallId: string, at: string | null): void {
  s.pending = s.pending.filter((p) => p.id !== toolCallId);
  s.last = { kind: 'toolResult', at, stopReason: null };
  s.lastActivityAt = laterIso(s.lastActivityAt, at ?? undefined);
}

const TOOL_RESULT_HEAD = /^\{"type":"message","id":"[^"]*","parentId":(?:"[^"]*"|null),"timestamp":"([^"]*)","message":\{"role":"toolResult","toolCallId":"([^"]{1,200})"/;

/** `{ toolCallId, at }` when `head` begins a tool-result record as pi and omp write them, else undefined. */
export function toolResultFromHead(head: string): { toolCallId: string; at: string | null } | undefined {
  const m = TOOL_RESULT_HEAD.exec(head);
  if (!m || m[2] === undefined) return undefined;
  return { toolCallId: m[2], at: isoTime(m[1]) ?? null };
}

function applyHeader(s: TranscriptSummary, r: Obj, at: string | undefined): void {
  const id = str(r['id']);
  if (s.id === null && id !== undefined && isUuid(id)) s.id = id.toLowerCase();
  s.cwd ??= str(r['cwd']) ?? null;
  s.startedAt ??= at ?? null;
}

function setTitle(s: TranscriptSummary, v: unknown): void {
  const t = str(v);
  if (t !== undefined && t.trim() !== '') s.title = oneLine(t, 200);
}

function applyModelChange(s: TranscriptSummary, r: Obj): void {
  // pi: {provider, modelId}; omp: {model: "provider/model"}.
  const id = str(r['modelId']) ?? stripProvider(str(r['model']));
  if (id) s.model = id;
}

function stripProvider(m: string | undefined): string | undefined {
  if (m === undefined) return undefined;
  const slash = m.indexOf('/');
  return slash === -1 ? m : m.slice(slash + 1);
}

function applyMessage(s: TranscriptSummary, m: Obj | undefined, at: string | null): void {
  if (!m) return;
  switch (m['role']) {
    case 'user': {
      s.messages++;
      const text = oneLine(textOf(m['content']));
      if (s.firstPrompt === null && text !== '') s.firstPrompt = text;
      s.last = { kind: 'user', at, stopReason: null };
      s.turnSince = at;
      s.pending = [];
      break;
    }
    case 'assistant': applyAssistant(s, m, at); break;
    case 'toolResult': {
      const id = str(m['toolCallId']);
      if (id !== undefined) applyToolResult(s, id, at);
      break;
    }
    default: break;
  }
}

function applyAssistant(s: TranscriptSummary, m: Obj, at: string | null): void {
  s.messages++;
  const model = str(m['model']);
  if (model) s.model = model;
  const usage = asObj(m['usage']);
  if (usage) {
    s.tokens.input += count(usage['input']);
    s.tokens.output += count(usage['output']);
    s.tokens.cacheRead += count(usage['cacheRead']);
    s.tokens.cacheWrite += count(usage['cacheWrite']);
    const total = num(asObj(usage['cost'])?.['total']);
    if (total !== undefined && total >= 0) s.costUsd = (s.costUsd ?? 0) + total;
  }
  const calls = toolCallsOf(m['content']);
  s.toolCalls += calls.length;
  const stopReason = str(m['stopReason']) ?? null;
  s.pending = stopReason === 'toolUse' ? calls : [];
  s.last = { kind: 'assistant', at, stopReason };
  if (stopReason !== 'toolUse') s.turnSince = null;
}

function toolCallsOf(content: unknown): PendingTool[] {
  if (!Array.isArray(content)) return [];
  const out: PendingTool[] = [];
  for (const part of content) {
    const p = asObj(part);
    if (!p || p['type'] !== 'toolCall') continue;
    const args = asObj(p['arguments']);
    const detail = str(args?.['question']) ?? str(args?.['command']) ?? null;
    out.push({ id: str(p['id']) ?? '', name: str(p['name']) ?? 'tool', detail: detail === null ? null : oneLine(detail, 120) });
  }
  return out;
}

function applyCustom(s: TranscriptSummary, r: Obj, at: string | null): void {
  const data = asObj(r['data']);
  if (r['customType'] === 'session_exit') {
    s.exits++;
    s.lastExit = { reason: str(data?.['reason']) ?? 'unknown', kind: str(data?.['kind']) ?? 'unknown', at: isoTime(data?.['recordedAt']) ?? at };
    s.last = { kind: 'exit', at, stopReason: null };
    s.pending = [];
    s.turnSince = null;
  } else if (r['customType'] === 'tool_execution_start') {
    s.last = { kind: 'toolStart', at, stopReason: null };
  }
}
