/**
 * The host's side of the Claude summary the module folds (assembly/claude-summary.ts): what it folded
 * since the host last took it, read out of its memory, and the recent message ids (the repeats' counts,
 * transcript-usage.ts) written in and read back. What the fields mean is the Claude fold's business
 * (harnesses/claude/discovery/transcript-fast.ts); this file only knows where they lie.
 */
import type { TokenCounts } from '../../core/session.ts';
import { latin1Text, utf8Text } from '../jsonl/index.ts';
import {
  COST_TEXT, C_SIZE, D_ASSISTANT_AT, D_BRANCH, D_COPIED, D_CWD, D_FIRST_AT, D_LAST_AT, D_MODEL, D_PROMPT, D_RECENT,
  D_ROOT, D_SESSION, M_SIZE, NAME_CAP, RECENT_MAX, R_SIZE, SUMMARY, S_ASSISTANT_AT, S_BRANCH, S_COPIED, S_COSTS,
  S_CWD, S_DIRTY, S_FIRST_AT, S_LAST_AT, S_MODEL, S_MODELS, S_MODELS_N, S_PROMPT, S_RECENT, S_RECENT_HEAD,
  S_RECENT_N, S_RECENT_OFF, S_RECORDS, S_ROOT, S_SESSION, S_TOKENS, S_UNKEYED,
} from './layout.ts';
import type { FoldedSummary } from './line-scanner.ts';

/** What the module folded since the last take: counts to add, the first and last strings seen, the extreme times. */
export interface Folded {
  records: number;
  unkeyed: number;
  /** The first of its kind seen (the summary keeps its own when it has one). */
  sessionId: string | null;
  rootKey: string | null;
  /** The last seen (each replaces the summary's). */
  cwd: string | null;
  gitBranch: string | null;
  model: string | null;
  copiedFrom: string | null;
  /** The earliest and latest times, and the latest of the assistant records. */
  firstAt: string | null;
  lastAt: string | null;
  lastAssistantAt: string | null;
  tokens: TokenCounts;
  /** The latest prompt record's text that is not blank, as JSON.parse reads it (the summary's lastPrompt is made of it), or null. */
  lastPrompt: string | null;
  /** The cost records, in their order, as the texts of their total and start time (null: none), for the host to parse. */
  costs: Array<[string, string | null]>;
  /** Tokens per model, in the order the models were first met, and those counted since the host last applied a cost record (null: none). */
  byModel: Array<[string, TokenCounts, TokenCounts | null]>;
}

/** A recent message as transcript-usage.ts keeps it: [id, model, counted usage]. */
export type RecentMessage = [string, string, TokenCounts];

const at = (offset: number): number => (SUMMARY + offset) >> 2;

function text(sum: FoldedSummary, offset: number): string {
  const from = SUMMARY + offset + 4;
  return utf8Text(sum.mem, from, from + (sum.i32[at(offset)] as number));
}

function countsAt(sum: FoldedSummary, byte: number): TokenCounts {
  const i = byte >> 3;
  return { input: sum.f64[i] as number, output: sum.f64[i + 1] as number, cacheRead: sum.f64[i + 2] as number, cacheWrite: sum.f64[i + 3] as number };
}

/** The prompt the module kept, a JSON string as written: decoded as JSON.parse decodes it. */
function promptText(sum: FoldedSummary): string {
  const literal = text(sum, S_PROMPT);
  return literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
}

/**
 * The strings the module keeps, as pairs of its bit in S_DIRTY and its slot: sessionId, rootKey, cwd,
 * gitBranch, model, copiedFrom; then the times (24 ASCII bytes each): firstAt, lastAt, lastAssistantAt.
 * (Read by index, as everything here: array destructuring and for…of compile to the iterator protocol,
 * and V8 then spends tens of ms optimising these few calls per file in every thread that folds.)
 */
const TEXTS = [D_SESSION, S_SESSION, D_ROOT, S_ROOT, D_CWD, S_CWD, D_BRANCH, S_BRANCH, D_MODEL, S_MODEL, D_COPIED, S_COPIED];
const TIMES = [D_FIRST_AT, S_FIRST_AT, D_LAST_AT, S_LAST_AT, D_ASSISTANT_AT, S_ASSISTANT_AT];

/** What was folded since the last take (null when nothing was), and the deltas start again. */
export function takeFolded(sum: FoldedSummary): Folded | null {
  const records = sum.i32[at(S_RECORDS)] as number;
  if (records === 0) return null;
  const dirty = sum.i32[at(S_DIRTY)] as number;
  const texts: (string | null)[] = [];
  for (let k = 0; k < TEXTS.length; k += 2) texts.push(dirty & (TEXTS[k] as number) ? text(sum, TEXTS[k + 1] as number) : null);
  const times: (string | null)[] = [];
  for (let k = 0; k < TIMES.length; k += 2) {
    const from = SUMMARY + (TIMES[k + 1] as number);
    times.push(dirty & (TIMES[k] as number) ? latin1Text(sum.mem, from, from + 24) : null);
  }
  const byModel: Folded['byModel'] = [];
  const models = sum.i32[at(S_MODELS_N)] as number;
  for (let i = 0; i < models; i++) {
    const m = SUMMARY + S_MODELS + i * M_SIZE;
    const name = utf8Text(sum.mem, m + 80, m + 80 + (sum.i32[m >> 2] as number));
    byModel.push([name, countsAt(sum, m + 16), sum.i32[(m >> 2) + 1] ? countsAt(sum, m + 48) : null]);
  }
  const costs: Folded['costs'] = [];
  const n = sum.i32[at(S_COSTS)] as number;
  for (let i = 0; i < n; i++) {
    const c = SUMMARY + S_COSTS + 4 + i * C_SIZE;
    const start = sum.i32[(c >> 2) + 1] as number;
    costs.push([latin1Text(sum.mem, c + 8, c + 8 + (sum.i32[c >> 2] as number)), start < 0 ? null : latin1Text(sum.mem, c + 8 + COST_TEXT, c + 8 + COST_TEXT + start)]);
  }
  const folded: Folded = {
    records, unkeyed: sum.i32[at(S_UNKEYED)] as number,
    sessionId: texts[0] as string | null, rootKey: texts[1] as string | null, cwd: texts[2] as string | null,
    gitBranch: texts[3] as string | null, model: texts[4] as string | null, copiedFrom: texts[5] as string | null,
    firstAt: times[0] as string | null, lastAt: times[1] as string | null, lastAssistantAt: times[2] as string | null,
    tokens: countsAt(sum, SUMMARY + S_TOKENS), lastPrompt: dirty & D_PROMPT ? promptText(sum) : null, costs, byModel,
  };
  sum.take();
  return folded;
}

/** The recent messages as the module holds them, oldest first, when it changed them since they were written in (else null). */
export function takeRecent(sum: FoldedSummary): RecentMessage[] | null {
  const dirty = sum.i32[at(S_DIRTY)] as number;
  if (!(dirty & D_RECENT)) return null;
  sum.i32[at(S_DIRTY)] = dirty & ~D_RECENT;
  const head = sum.i32[at(S_RECENT_HEAD)] as number;
  const n = sum.i32[at(S_RECENT_N)] as number;
  const out: RecentMessage[] = [];
  for (let i = 0; i < n; i++) {
    const r = SUMMARY + S_RECENT + ((head + i) % RECENT_MAX) * R_SIZE;
    const id = utf8Text(sum.mem, r + 48, r + 48 + (sum.i32[r >> 2] as number));
    const model = utf8Text(sum.mem, r + 176, r + 176 + (sum.i32[(r >> 2) + 1] as number));
    out.push([id, model, countsAt(sum, r + 16)]);
  }
  return out;
}

/** A text the module compares as bytes: well-formed (no lone surrogate) and at most NAME_CAP bytes of UTF-8. */
function fits(x: string): boolean {
  return !/[\ud800-\udfff]/.test(x) && Buffer.byteLength(x) <= NAME_CAP;
}

/** Counts the module adds exactly in any order: whole and below 2^53. */
function exact(t: TokenCounts): boolean {
  return Number.isSafeInteger(t.input) && t.input >= 0 && Number.isSafeInteger(t.output) && t.output >= 0 &&
    Number.isSafeInteger(t.cacheRead) && t.cacheRead >= 0 && Number.isSafeInteger(t.cacheWrite) && t.cacheWrite >= 0;
}

/**
 * Writes the recent messages into the module. False when one does not fit (an id or a model too long,
 * counts that are not whole): the host then keeps them, and the module gives assistant records back.
 */
export function putRecent(sum: FoldedSummary, recent: readonly RecentMessage[]): boolean {
  let ok = recent.length <= RECENT_MAX;
  for (let i = 0; ok && i < recent.length; i++) {
    const r = recent[i] as RecentMessage;
    ok = fits(r[0]) && fits(r[1]) && exact(r[2]);
  }
  sum.i32[at(S_DIRTY)] = (sum.i32[at(S_DIRTY)] as number) & ~D_RECENT;
  sum.i32[at(S_RECENT_HEAD)] = 0;
  sum.i32[at(S_RECENT_N)] = ok ? recent.length : 0;
  sum.i32[at(S_RECENT_OFF)] = ok ? 0 : 1;
  if (!ok) return false;
  for (let i = 0; i < recent.length; i++) {
    const m = recent[i] as RecentMessage;
    const c = m[2];
    const r = SUMMARY + S_RECENT + i * R_SIZE;
    sum.i32[r >> 2] = sum.mem.write(m[0], r + 48, 'utf8');
    sum.i32[(r >> 2) + 1] = sum.mem.write(m[1], r + 176, 'utf8');
    const f = (r + 16) >> 3;
    sum.f64[f] = c.input;
    sum.f64[f + 1] = c.output;
    sum.f64[f + 2] = c.cacheRead;
    sum.f64[f + 3] = c.cacheWrite;
  }
  return true;
}
