/**
 * Codex rollout records (`session_meta`, `turn_context`, `event_msg`, `response_item` lines) → a small,
 * JSON-serialisable summary.
 * The summary is what the transcript index stores, so a later read continues from the byte offset
 * with the same summary. Every function here is pure.
 */
import type { TokenCounts } from '../../../core/session.ts';
import { emptyTokens } from '../../../core/session.ts';
import { keyedObject, ownEntry, setOwn } from '../../../discovery/own-keys.ts';
import { requestRecord } from './usage-records.ts';
import type { UsageSink } from './usage-records.ts';

export type TurnState = 'none' | 'running' | 'complete' | 'aborted';

export interface RolloutSummary {
  /** Summary format version; an index entry of another version is re-read from byte 0. */
  v: 3;
  /** Rollout records seen ({timestamp, type, payload}); a file with none is not a rollout. */
  records: number;
  id: string | null;
  cwd: string | null;
  startedAt: string | null;
  originator: string | null;
  /** `exec` | `vscode` (daemon TUI) | `cli` (embedded TUI) … */
  source: string | null;
  threadSource: string | null;
  cliVersion: string | null;
  model: string | null;
  branch: string | null;
  firstPrompt: string | null;
  /** The thread's running token total (the latest one Codex wrote). */
  tokens: TokenCounts;
  /**
   * The same tokens split by the model in force when they were spent (turn_context or
   * thread_settings_applied before them; '' while none is known), so a thread resumed with another
   * `-m` prices each turn at its own model.
   */
  byModel: Record<string, TokenCounts>;
  lastActivityAt: string | null;
  turn: { state: TurnState; id: string | null; since: string | null; trigger: string | null };
  /** Tool calls of the current turn with no output yet, by call_id. */
  pending: Record<string, { name: string; at: string | null }>;
  lastAgentMessage: string | null;
}

export function emptyRolloutSummary(): RolloutSummary {
  return {
    v: 3, records: 0, id: null, cwd: null, startedAt: null, originator: null, source: null, threadSource: null, cliVersion: null,
    model: null, branch: null, firstPrompt: null, tokens: emptyTokens(), byModel: {},
    lastActivityAt: null, turn: { state: 'none', id: null, since: null, trigger: null }, pending: keyedObject(), lastAgentMessage: null,
  };
}

/** True when `x` looks like a summary this version wrote (the index hands back `unknown`). */
export function isRolloutSummary(x: unknown): x is RolloutSummary {
  const s = x as RolloutSummary | null;
  return typeof s === 'object' && s !== null && s.v === 3 && typeof s.tokens === 'object' && typeof s.byModel === 'object'
    && typeof s.turn === 'object' && typeof s.pending === 'object';
}

type Obj = Record<string, unknown>;
const obj = (x: unknown): Obj | null => (typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Obj) : null);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0);

/**
 * OpenAI usage → TokenCounts. `input_tokens` is the whole prompt and its cached reads and cache writes
 * are subsets of it, while Session.tokens.input excludes both (as priceTokens expects): subtract them.
 * Reasoning tokens are part of `output_tokens`.
 */
export function tokensFromUsage(u: unknown): TokenCounts | null {
  const o = obj(u);
  if (!o) return null;
  const cacheRead = num(o.cached_input_tokens);
  const cacheWrite = num(o.cache_write_input_tokens);
  return { input: Math.max(0, num(o.input_tokens) - cacheRead - cacheWrite), output: num(o.output_tokens), cacheRead, cacheWrite };
}

/**
 * Takes a new running total: what it adds to the previous one is charged to the model in force.
 * token_usage_record and token_count repeat the same total, so the second adds nothing. A total
 * below the previous one (a counter that restarted) is all new spend rather than a negative one.
 */
function takeTotal(s: RolloutSummary, total: TokenCounts): void {
  const prev = s.tokens;
  const restarted = total.input < prev.input || total.output < prev.output || total.cacheRead < prev.cacheRead || total.cacheWrite < prev.cacheWrite;
  // The model is the rollout's text: its entry is an own one, whatever its name (own-keys.ts).
  const part = ownEntry(s.byModel, s.model ?? '', emptyTokens);
  part.input += restarted ? total.input : total.input - prev.input;
  part.output += restarted ? total.output : total.output - prev.output;
  part.cacheRead += restarted ? total.cacheRead : total.cacheRead - prev.cacheRead;
  part.cacheWrite += restarted ? total.cacheWrite : total.cacheWrite - prev.cacheWrite;
  s.tokens = total;
}

function textOf(content: unknown): string | null {
  if (!Array.isArray(content)) return null;
  const parts = content.map((c) => str(obj(c)?.text)).filter((t): t is string => t !== null);
  return parts.length > 0 ? parts.join('\n') : null;
}

/**
 * A new running total (`totalRaw`, as Codex writes it; none when it is not an object) from `ts`: its
 * request's usage record to `sink`, then the summary's totals.
 */
function takeRequest(s: RolloutSummary, totalRaw: unknown, lastRaw: unknown, ts: string | null, sink: UsageSink | undefined): void {
  const total = tokensFromUsage(totalRaw);
  if (!total) return;
  if (sink) {
    const last = tokensFromUsage(lastRaw);
    const reasoning = num(obj(lastRaw)?.reasoning_output_tokens);
    const r = requestRecord(sink, { prev: s.tokens, total, last, reasoning, model: s.model, ts });
    if (r) sink.emit(r);
  }
  takeTotal(s, total);
}

/**
 * A token line read without a parse (token-lines.ts), from `ts`: what applyRolloutRecord does with its
 * record (`total` is token_count's `info.total_token_usage` or the record's `thread_token_usage`,
 * `last` its `last_token_usage` or `usage`).
 */
export function applyTokenLine(s: RolloutSummary, ts: string, total: unknown, last: unknown, sink?: UsageSink): void {
  s.records++;
  if (s.lastActivityAt === null || ts > s.lastActivityAt) s.lastActivityAt = ts;
  takeRequest(s, total, last, ts, sink);
}

/**
 * A token line whose running total the line scanner read (json-scan: input, cached input, output and cache
 * write tokens, as tokensFromUsage reads them), from `ts`: applyTokenLine without a sink.
 */
export function applyTokenTotal(s: RolloutSummary, ts: string, counts: readonly number[]): void {
  s.records++;
  if (s.lastActivityAt === null || ts > s.lastActivityAt) s.lastActivityAt = ts;
  // By index: a destructured parameter compiles to the iterator protocol, costly for V8 to optimise.
  const cacheRead = counts[1] as number;
  const cacheWrite = counts[3] as number;
  takeTotal(s, { input: Math.max(0, (counts[0] as number) - cacheRead - cacheWrite), output: counts[2] as number, cacheRead, cacheWrite });
}

function applyEvent(s: RolloutSummary, p: Obj, ts: string | null, sink: UsageSink | undefined): void {
  switch (p.type) {
    case 'task_started': {
      const attr = obj(p.turn_attribution);
      s.turn = { state: 'running', id: str(p.turn_id), since: ts, trigger: str(attr?.turn_trigger) };
      s.pending = keyedObject();
      break;
    }
    case 'task_complete':
      s.turn = { ...s.turn, state: 'complete', id: str(p.turn_id) ?? s.turn.id, since: ts };
      s.lastAgentMessage = str(p.last_agent_message) ?? s.lastAgentMessage;
      s.pending = keyedObject();
      break;
    case 'turn_aborted':
      s.turn = { ...s.turn, state: 'aborted', id: str(p.turn_id) ?? s.turn.id, since: ts };
      s.pending = keyedObject();
      break;
    case 'item_completed': {
      const item = obj(p.item);
      if (item?.type === 'UserMessage' && s.firstPrompt === null) s.firstPrompt = textOf(item.content);
      break;
    }
    case 'token_count': {
      const info = obj(p.info);
      takeRequest(s, info?.total_token_usage, info?.last_token_usage, ts, sink);
      break;
    }
    case 'thread_settings_applied': {
      const set = obj(p.thread_settings);
      s.model = str(set?.model) ?? s.model;
      s.cwd = str(set?.cwd) ?? s.cwd;
      break;
    }
  }
}

function applyResponseItem(s: RolloutSummary, p: Obj, ts: string | null): void {
  const type = str(p.type) ?? '';
  const callId = str(p.call_id);
  if (callId === null) return;
  // function_call / custom_tool_call / local_shell_call and their *_output counterparts.
  if (type.endsWith('_call_output')) delete s.pending[callId];
  else if (type.endsWith('_call')) {
    const ns = str(p.namespace);
    const name = str(p.name) ?? type;
    setOwn(s.pending, callId, { name: ns ? `${ns}__${name}` : name, at: ts });
  }
}

/**
 * Folds one parsed rollout line into the summary (mutates and returns it); each model request's usage
 * also goes to `sink`. Unknown shapes are ignored.
 */
export function applyRolloutRecord(s: RolloutSummary, record: unknown, sink?: UsageSink): RolloutSummary {
  const r = obj(record);
  if (!r) return s;
  const ts = str(r.timestamp);
  const p = obj(r.payload);
  // Every line Codex writes is {timestamp, type, payload}; anything else is not its record.
  if (ts === null || typeof r.type !== 'string' || !p) return s;
  s.records++;
  if (s.lastActivityAt === null || ts > s.lastActivityAt) s.lastActivityAt = ts;
  switch (r.type) {
    case 'session_meta': {
      s.id ??= str(p.id);
      s.startedAt ??= str(p.timestamp) ?? ts;
      s.cwd = str(p.cwd) ?? s.cwd;
      s.originator = str(p.originator) ?? s.originator;
      s.source = str(p.source) ?? s.source;
      s.threadSource = str(p.thread_source) ?? s.threadSource;
      s.cliVersion = str(p.cli_version) ?? s.cliVersion;
      s.branch = str(obj(p.git)?.branch) ?? s.branch;
      break;
    }
    case 'turn_context':
      s.model = str(p.model) ?? s.model;
      s.cwd = str(p.cwd) ?? s.cwd;
      break;
    case 'token_usage_record':
      takeRequest(s, p.thread_token_usage, p.usage, ts, sink);
      break;
    case 'event_msg':
      applyEvent(s, p, ts, sink);
      break;
    case 'response_item':
      applyResponseItem(s, p, ts);
      break;
  }
  return s;
}

const HEAD_TS = /^\{"timestamp":"([^"]+)"/;
const HEAD_CALL_ID = /"call_id":"([^"\\]+)"/;
/** Where a head is read (rolloutIgnore here, the byte filter in rollout-lines.ts): the record's type key. */
export const RECORD_TYPE = ',"type":"';
/** The heads that start at RECORD_TYPE, as Codex writes them. */
export const WORLD_STATE = ',"type":"world_state","payload":';
export const RESPONSE_ITEM = ',"type":"response_item","payload":{"type":"';
export const ITEM_COMPLETED = ',"type":"event_msg","payload":{"type":"item_completed"';
/** An item_completed's item type key, after ITEM_COMPLETED. */
export const ITEM_TYPE = '"item":{"type":"';

/**
 * The `ignore` filter for readJsonlFrom: big records Muster never shows are not JSON.parsed (world
 * snapshots, full messages — the text comes from the small item_completed records — tool outputs and
 * command items). What the summary needs from them (timestamp, the call_id an output closes) is taken
 * from the head. Anything not recognised is parsed, so an unexpected layout costs time, never data.
 * A head is read where Codex writes its keys: the record's type is the first `,"type":"` (after the
 * timestamp), the payload's type follows it, and an item's type is the first `"item":{"type":"` after.
 * `messages`: the filter of search's and reading's pass, which keeps every prompt and reply.
 */
export function rolloutIgnore(s: RolloutSummary, opts: { messages?: boolean } = {}): (head: string) => boolean {
  return (head) => {
    let skip = false;
    let closes: string | null = null;
    const at = head.indexOf(RECORD_TYPE);
    if (at === -1) return false;
    if (head.startsWith(WORLD_STATE, at)) skip = true;
    else if (head.startsWith(RESPONSE_ITEM, at)) {
      const type = /^[a-z_]+(?=")/.exec(head.slice(at + RESPONSE_ITEM.length))?.[0] ?? '';
      if (type === 'message' || type === 'reasoning') skip = true;
      else if (/^[a-z_]+_call_output$/.test(type)) {
        closes = HEAD_CALL_ID.exec(head)?.[1] ?? null;
        skip = closes !== null;
      }
    } else if (head.startsWith(ITEM_COMPLETED, at)) {
      // The first prompt is read for the summary; with `messages` (search and reading) every prompt and
      // reply is; other items are not.
      const i = head.indexOf(ITEM_TYPE, at);
      const type = i === -1 ? '' : (/^[A-Za-z]+(?=")/.exec(head.slice(i + ITEM_TYPE.length))?.[0] ?? '');
      const user = type === 'UserMessage';
      const wanted = opts.messages === true ? user || type === 'AgentMessage' : s.firstPrompt === null && user;
      skip = !wanted && type !== '';
    }
    if (!skip) return false;
    const ts = HEAD_TS.exec(head)?.[1];
    if (ts !== undefined && (s.lastActivityAt === null || ts > s.lastActivityAt)) s.lastActivityAt = ts;
    if (closes !== null) delete s.pending[closes];
    return true;
  };
}

/** Thread id from a rollout file name (`rollout-<date>T<time>-<uuid>.jsonl`), else null. */
export function threadIdFromRolloutName(name: string): string | null {
  const m = /^rollout-.*-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(name);
  return m ? (m[1] as string).toLowerCase() : null;
}

/** First line of the first prompt, cut to a label. */
export function titleFromPrompt(p: string | null): string {
  if (!p) return '';
  const line = p.trim().split('\n')[0]?.trim() ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
