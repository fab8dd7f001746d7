/**
 * What the OpenCode source remembers per session between scans (JSON-serialisable: it is stored in the
 * TranscriptIndex), and the pure helpers that fill it from OpenCode's records.
 */
import type { TokenCounts } from '../../../core/session.ts';

/** The status-relevant facts of one message, pulled out without parsing its (possibly large) JSON in JS. */
export interface MessageFacts {
  id: string;
  role: 'user' | 'assistant';
  createdMs: number;
  /** `time.completed`: absent on an assistant message whose process died mid-reply (SIGKILL). */
  completedMs: number | null;
  /** `error.name`, e.g. MessageAbortedError after SIGTERM or an HTTP abort. */
  error: string | null;
  /** `finish`: `stop`, `tool-calls` (the turn goes on with another step), … */
  finish: string | null;
  model: string | null;
}

/** A tool call still `running`/`pending` in the last assistant message (may be waiting for approval). */
export interface RunningTool {
  tool: string;
  title: string | null;
  startMs: number | null;
}

export interface OpenCodeSessionSummary {
  id: string;
  /** Where it came from: the SQLite store or the legacy JSON tree. */
  store: 'db' | 'json';
  /** Change key: when it is unchanged, nothing of this session needs re-reading. */
  key: string;
  title: string;
  directory: string | null;
  model: string | null;
  tokens: TokenCounts;
  costUsd: number | null;
  createdMs: number | null;
  updatedMs: number | null;
  lastUser: MessageFacts | null;
  lastAssistant: MessageFacts | null;
  runningTool: RunningTool | null;
  /** Store only: the newest message update whose usage was read (usage-records.ts); absent before the first read. */
  usageMark?: number;
  /** Store only: how far the search index has the conversation (conversation.ts); absent before the first read. */
  search?: ConversationMark;
}

/** How far the search index has a session's conversation (conversation.ts). */
export interface ConversationMark {
  /** Newest `time_updated` of a message or part read, ms: rows updated at or after it are read again. */
  mark: number;
  /** Messages (store rows) indexed. */
  count: number;
  /** Positions indexed: the next message's position. */
  total: number;
  /** The last messages indexed, oldest first: [id, time_created, first position]. */
  tail: [string, number, number][];
}

/** OpenCode's placeholder title until the title model answers (`New session - 2026-11-30T07:08:33.837Z`). */
const PLACEHOLDER_TITLE = /^(New session|Child session) - \d{4}-\d\d-\d\dT/;

export function isPlaceholderTitle(title: string | null): boolean {
  const t = (title ?? '').trim();
  return t === '' || PLACEHOLDER_TITLE.test(t);
}

/** The session title, or the first prompt (one line, trimmed to 80 chars) while the title is a placeholder. */
export function chooseTitle(title: string | null, firstPrompt: string | null): string {
  const t = (title ?? '').trim();
  if (!isPlaceholderTitle(t)) return t;
  const p = (firstPrompt ?? '').replace(/\s+/g, ' ').trim();
  if (p) return p.length > 80 ? `${p.slice(0, 79)}…` : p;
  return t;
}

/** `{"id":"fake-model","providerID":"fake"}` (session.model) → `fake-model`; tolerant of junk. */
export function parseSessionModel(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw === '') return null;
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const id = o.id ?? o.modelID;
      if (typeof id === 'string' && id) return id;
    }
  } catch { /* not JSON: some versions stored `provider/model` */ }
  const slash = raw.indexOf('/');
  return slash >= 0 ? raw.slice(slash + 1) || null : raw;
}

/** A finite, non-negative number, else 0 (token columns and JSON fields may hold null or junk). */
export function count(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export function numberOrNull(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

export function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/**
 * True while the last turn has not finished: a prompt with no reply yet, a reply without `time.completed`,
 * or a reply that finished a step with tool calls (the next step's message follows).
 */
export function isTurnOpen(s: Pick<OpenCodeSessionSummary, 'lastUser' | 'lastAssistant'>): boolean {
  const a = s.lastAssistant;
  const u = s.lastUser;
  if (u && (!a || a.createdMs < u.createdMs)) return true;
  if (!a) return false;
  if (a.completedMs === null) return true;
  return a.finish === 'tool-calls' && a.error === null;
}

/** Last activity in ms: the newest of the session's update time and its last messages. */
export function lastActivityMs(s: OpenCodeSessionSummary): number | null {
  const ts = [s.updatedMs, s.lastUser?.createdMs, s.lastAssistant?.createdMs, s.lastAssistant?.completedMs]
    .filter((t): t is number => typeof t === 'number');
  return ts.length ? Math.max(...ts) : null;
}
