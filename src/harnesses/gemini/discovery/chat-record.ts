/**
 * One Gemini CLI chat file folded into a summary, record by record (0.61.0, observed):
 * - line 1, the header: `{ sessionId, projectHash, startTime, lastUpdated, kind }` — no cwd, model or title;
 * - `{ $set: { … } }` patches top-level fields: `lastUpdated`, `summary` (Gemini's own title of the
 *   session), `messages` (the session context it starts with, again after a resume);
 * - message records `{ id, timestamp, type: 'user' | 'gemini' | …, content, … }`; a `gemini` record
 *   carries `model` and `tokens { input, output, cached, thoughts, tool, total }`, and is written
 *   again under the same id when its tool calls are added (the last copy wins);
 * - `{ $rewindTo: id }` rewinds the conversation; tokens already spent stay spent.
 * Pure and tolerant: records come from another program.
 */
import type { TokenCounts } from '../../../core/session.ts';
import { emptyTokens } from '../../../core/session.ts';
import { isUuid } from '../../../core/ids.ts';
import { ownEntry, ownValue } from '../../../discovery/own-keys.ts';

export interface RecentReply {
  id: string;
  model: string;
  tokens: TokenCounts;
}

export interface ChatSummary {
  /** This shape's version: a summary of another one is read again (2: the session is in the search index). */
  format: number;
  /** The header's session id, lower-case; null until a header with a UUID was read. */
  sessionId: string | null;
  /** `main`, or `subagent` for an agent's helper. */
  kind: string | null;
  startedAt: string | null;
  lastActivityAt: string | null;
  /** `$set.summary`: Gemini's own title of the session. */
  title: string | null;
  /** The first prompt the person typed (first line), for sessions without a summary. */
  firstPrompt: string | null;
  model: string | null;
  /** When the reply that named `model` was written (the newest across a session's files wins). */
  modelAt: string | null;
  tokens: TokenCounts;
  /** Tokens per model, for pricing each part at its own model. */
  byModel: Record<string, TokenCounts>;
  /** The last replies counted, so one written again under its id replaces what it added. */
  recent: RecentReply[];
  /** Prompts and replies (the session context Gemini adds first is not one). */
  messages: number;
  linesParsed: number;
  linesSkipped: number;
}

/** Replies remembered for replacement: Gemini rewrites a reply right after the first write. */
const RECENT_MAX = 16;
export const CHAT_SUMMARY_FORMAT = 2;
const TITLE_MAX = 200;

export function emptyChatSummary(): ChatSummary {
  return {
    format: CHAT_SUMMARY_FORMAT, sessionId: null, kind: null, startedAt: null, lastActivityAt: null, title: null, firstPrompt: null,
    model: null, modelAt: null, tokens: emptyTokens(), byModel: {}, recent: [], messages: 0, linesParsed: 0, linesSkipped: 0,
  };
}

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const iso = (v: unknown): string | null => (typeof v === 'string' && Number.isFinite(Date.parse(v)) ? new Date(v).toISOString() : null);
const later = (a: string | null, b: string | null): string | null => (a === null ? b : b === null || a >= b ? a : b);

/** Gemini's usage → Session tokens: cached tokens are inside `input`; thoughts are billed as output. */
export function tokensOf(t: Json): TokenCounts {
  const cached = num(t.cached);
  return { input: Math.max(0, num(t.input) - cached) + num(t.tool), output: num(t.output) + num(t.thoughts), cacheRead: cached, cacheWrite: 0 };
}

function add(into: TokenCounts, t: TokenCounts, sign: 1 | -1): void {
  into.input = Math.max(0, into.input + sign * t.input);
  into.output = Math.max(0, into.output + sign * t.output);
  into.cacheRead = Math.max(0, into.cacheRead + sign * t.cacheRead);
  into.cacheWrite = Math.max(0, into.cacheWrite + sign * t.cacheWrite);
}

/** The text of a message's `content` (a string, or parts with `text`); '' for tool results. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => str(obj(p)?.text) ?? '').join('');
}

/** True for the context block Gemini puts before the first prompt (not something the person typed). */
export const isSessionContext = (text: string): boolean => text.trimStart().startsWith('<session_context>');

function applyReply(s: ChatSummary, r: Json, at: string | null): void {
  const id = str(r.id);
  const model = str(r.model);
  const usage = obj(r.tokens);
  const known = id === null ? -1 : s.recent.findIndex((x) => x.id === id);
  if (known < 0) s.messages++;
  if (model !== null && (s.modelAt === null || at === null || at >= s.modelAt)) {
    s.model = model;
    s.modelAt = at ?? s.modelAt;
  }
  if (!usage) return;
  const t = tokensOf(usage);
  const key = model ?? '';
  const prev = known >= 0 ? s.recent.splice(known, 1)[0] : undefined;
  if (prev) {
    add(s.tokens, prev.tokens, -1);
    const before = ownValue(s.byModel, prev.model);
    if (before) add(before, prev.tokens, -1);
  }
  add(s.tokens, t, 1);
  // The model is the file's text: its entry is an own one, whatever its name (own-keys.ts).
  add(ownEntry(s.byModel, key, emptyTokens), t, 1);
  if (id !== null) {
    s.recent.push({ id, model: key, tokens: t });
    if (s.recent.length > RECENT_MAX) s.recent.shift();
  }
}

/** Folds one record into `s` (mutates it). Records of unknown shape are ignored. */
export function applyChatRecord(s: ChatSummary, record: unknown): void {
  const r = obj(record);
  if (!r) return;
  const set = obj(r.$set);
  if (set) {
    if (typeof set.summary === 'string' && set.summary.trim()) s.title = set.summary.trim().slice(0, TITLE_MAX);
    s.lastActivityAt = later(s.lastActivityAt, iso(set.lastUpdated));
    return;
  }
  if (typeof r.sessionId === 'string' && r.type === undefined) {
    // The header (only the first one of a file counts: a later line cannot change the file's session).
    if (s.sessionId === null && isUuid(r.sessionId)) {
      s.sessionId = r.sessionId.toLowerCase();
      s.kind = str(r.kind);
      s.startedAt = iso(r.startTime);
    }
    s.lastActivityAt = later(s.lastActivityAt, iso(r.lastUpdated));
    return;
  }
  const type = str(r.type);
  if (type === null || str(r.id) === null) return;
  const at = iso(r.timestamp);
  s.lastActivityAt = later(s.lastActivityAt, at);
  if (type === 'gemini') return applyReply(s, r, at);
  if (type !== 'user') return;
  const text = contentText(r.content).trim();
  // Tool results come back as user records holding only functionResponse parts.
  if (!text || isSessionContext(text)) return;
  s.messages++;
  s.firstPrompt ??= (text.split('\n', 1)[0] ?? '').slice(0, TITLE_MAX);
}
