/**
 * Folding `session-state/<id>/events.jsonl` (Copilot CLI's typed event log, one
 * `{ type, data, id, timestamp, parentId }` per line, append-only) into what a session listing needs.
 * The summary is plain JSON so the transcript index can keep it and resume at the next byte.
 * Observed with 1.0.102: `session.usage_record.inputTokens` includes the cache reads
 * (`cacheReadTokens`), so `tokens.input` is the difference; `cost` there is premium requests, not USD.
 * `/fork` copies the parent's events, usage records included, into the fork's file; a copied record
 * keeps the parent as its `accounting.sourceSessionId`, so it counts for the parent only, and names it
 * as the session the fork came from.
 */
import type { TokenCounts } from '../../../core/session.ts';
import { addTokens, emptyTokens } from '../../../core/session.ts';
import { ownEntry } from '../../../discovery/own-keys.ts';

/** What the last significant event says about the turn. */
export type LastKind = 'none' | 'start' | 'user' | 'turn' | 'tool' | 'assistant' | 'turnEnd' | 'shutdown';

export interface PendingPermission {
  requestId: string;
  /** "permission: shell (echo hi > x)" */
  why: string;
  at: string | null;
}

export interface EventsSummary {
  linesParsed: number;
  linesSkipped: number;
  /** Records of Copilot's shape seen (a file of something else has none). */
  records: number;
  sessionId: string | null;
  cwd: string | null;
  startedAt: string | null;
  lastActivityAt: string | null;
  model: string | null;
  /** Summed `session.usage_record`s, Session.tokens style (input excludes cache reads). */
  tokens: TokenCounts;
  byModel: Record<string, TokenCounts>;
  firstPrompt: string | null;
  /** The session whose copied usage records this file holds (`/fork`), when it holds any. */
  forkedFrom: string | null;
  /** Permission prompts asked and not yet answered. */
  pending: PendingPermission[];
  last: { kind: LastKind; at: string | null };
}

export function emptySummary(): EventsSummary {
  return {
    linesParsed: 0, linesSkipped: 0, records: 0, sessionId: null, cwd: null, startedAt: null, lastActivityAt: null, model: null,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, byModel: {}, firstPrompt: null, forkedFrom: null, pending: [], last: { kind: 'none', at: null },
  };
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const iso = (v: unknown): string | null => {
  const s = str(v);
  return s !== null && Number.isFinite(Date.parse(s)) ? s : null;
};

/** Longest first prompt kept, characters (a title, not a transcript). */
const PROMPT_MAX = 300;

/**
 * Lines never parsed: the system prompt (~25 KB on every turn's first request, never shown). Takes the
 * head of a line (see readJsonlFrom's `ignore`).
 */
export function ignoredLine(head: string): boolean {
  return head.startsWith('{"type":"system.message"');
}

function addUsage(s: EventsSummary, usage: Json): void {
  const source = str(obj(usage.accounting)?.sourceSessionId);
  if (source !== null && s.sessionId !== null && source.toLowerCase() !== s.sessionId.toLowerCase()) {
    s.forkedFrom ??= source.toLowerCase();
    return;
  }
  const cacheRead = num(usage.cacheReadTokens);
  const t: TokenCounts = {
    input: Math.max(0, num(usage.inputTokens) - cacheRead),
    output: num(usage.outputTokens),
    cacheRead,
    cacheWrite: num(usage.cacheWriteTokens),
  };
  const model = str(usage.model) ?? '';
  // The model is the file's text: its entry is an own one, whatever its name (own-keys.ts).
  addTokens(ownEntry(s.byModel, model, emptyTokens), t);
  addTokens(s.tokens, t);
  if (model) s.model = model;
}

function permissionWhy(data: Json): string {
  const req = obj(data.permissionRequest) ?? {};
  const kind = str(req.kind) ?? 'tool';
  const detail = str(req.fullCommandText) ?? str(req.path) ?? str(req.url) ?? str(req.toolName);
  return `permission: ${kind}${detail ? ` (${detail.slice(0, 120)})` : ''}`;
}

/** Folds one parsed line into `s`. Lines that are not Copilot events only count as parsed. */
export function applyEvent(s: EventsSummary, record: unknown): void {
  const r = obj(record);
  const type = str(r?.type);
  const data = obj(r?.data);
  if (!r || !type || !data) return;
  s.records++;
  const at = iso(r.timestamp);
  if (at && (!s.lastActivityAt || at > s.lastActivityAt)) s.lastActivityAt = at;
  const mark = (kind: LastKind) => void (s.last = { kind, at: at ?? s.last.at });
  switch (type) {
    case 'session.start':
    case 'session.resume': {
      s.sessionId ??= str(data.sessionId);
      s.cwd = str(obj(data.context)?.cwd) ?? s.cwd;
      s.startedAt ??= iso(data.startTime) ?? at;
      s.model = str(data.selectedModel) ?? s.model;
      // A new process took the session: whatever the last one was asking is gone with it.
      s.pending = [];
      return mark('start');
    }
    case 'session.model_change':
      s.model = str(data.newModel) ?? s.model;
      return;
    case 'user.message':
      s.firstPrompt ??= str(data.content)?.trim().slice(0, PROMPT_MAX) || null;
      return mark('user');
    case 'assistant.turn_start':
      return mark('turn');
    case 'assistant.message': {
      s.model = str(data.model) ?? s.model;
      const tools = Array.isArray(data.toolRequests) && data.toolRequests.length > 0;
      return mark(tools ? 'tool' : 'assistant');
    }
    case 'tool.execution_start':
    case 'tool.execution_complete':
      return mark('tool');
    case 'assistant.turn_end':
      return mark('turnEnd');
    case 'permission.requested': {
      const requestId = str(data.requestId);
      if (requestId && !s.pending.some((p) => p.requestId === requestId)) s.pending.push({ requestId, why: permissionWhy(data), at });
      return;
    }
    case 'permission.completed':
      s.pending = s.pending.filter((p) => p.requestId !== str(data.requestId));
      return;
    case 'session.usage_record': {
      const usage = obj(data.usage);
      if (usage) addUsage(s, usage);
      return;
    }
    case 'session.shutdown':
      s.pending = [];
      return mark('shutdown');
    default:
      return;
  }
}

/** The events alone say a turn is running (a prompt, a model call or a tool awaits its follow-up). */
export function turnRunning(s: EventsSummary): boolean {
  return s.last.kind === 'user' || s.last.kind === 'turn' || s.last.kind === 'tool';
}
