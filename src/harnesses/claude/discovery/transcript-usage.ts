/**
 * Token and cost accounting for a Claude transcript.
 *
 * Claude Code writes one `assistant` record per content block of an API message (text, then
 * tool_use...), each repeating the message's `usage`; a message is counted once, by `message.id`.
 * A repeat may carry larger counts (final output tokens), so a repeat adds only what grew.
 * Repeats sit close together, so only the last RECENT_IDS ids are remembered (bounded state).
 *
 * Cost: Claude Code's own `cost-state` records carry `totalCostUSD` cumulative per process run,
 * tagged by `startTime`; a resumed run restores and continues the previous run's totals under the
 * same `startTime`, while a second process resuming the same session at once writes its own
 * `startTime`. So the cost is the sum over `startTime` groups of each group's largest total, plus
 * the list price of messages that arrived after the last cost record (not yet included in one).
 */
import type { TokenCounts } from '../../../core/session.ts';
import { addTokens, emptyTokens } from '../../../core/session.ts';
import { priceByModel } from '../../../discovery/pricing/index.ts';
import { asCount, asNumber, asObject, asString } from './record-fields.ts';
import { ownEntry, ownValue, setOwn } from '../../../discovery/own-keys.ts';
import type { Json } from './record-fields.ts';

const RECENT_IDS = 64;

export interface UsageState {
  tokens: TokenCounts;
  /** Tokens per model, for pricing when there is no cost record. */
  byModel: Record<string, TokenCounts>;
  /** Tokens per model since the last cost-state record. */
  uncosted: Record<string, TokenCounts>;
  /** Recently counted messages: [message id, model, counted usage]. */
  recent: Array<[string, string, TokenCounts]>;
  /** Largest totalCostUSD per cost-state startTime. */
  costGroups: Record<string, number>;
}

export function createUsageState(): UsageState {
  return { tokens: emptyTokens(), byModel: {}, uncosted: {}, recent: [], costGroups: {} };
}

export function usageOf(raw: unknown): TokenCounts {
  const u = asObject(raw);
  if (!u) return emptyTokens();
  return {
    input: asCount(u.input_tokens),
    output: asCount(u.output_tokens),
    cacheRead: asCount(u.cache_read_input_tokens),
    cacheWrite: asCount(u.cache_creation_input_tokens),
  };
}

export function addInto(target: Record<string, TokenCounts>, model: string, d: TokenCounts): void {
  addTokens(ownEntry(target, model, emptyTokens), d);
}

/**
 * What `usage` adds to `prev` (never less than nothing), with `prev` raised to it. The four counts are
 * named, not looped over by key: a keyed access the fold has not met yet (a repeat) makes V8 throw the
 * optimised fold away and compile it again, in every thread that folds.
 */
function growth(prev: TokenCounts, usage: TokenCounts): TokenCounts {
  const delta = {
    input: Math.max(0, usage.input - prev.input),
    output: Math.max(0, usage.output - prev.output),
    cacheRead: Math.max(0, usage.cacheRead - prev.cacheRead),
    cacheWrite: Math.max(0, usage.cacheWrite - prev.cacheWrite),
  };
  prev.input = Math.max(prev.input, usage.input);
  prev.output = Math.max(prev.output, usage.output);
  prev.cacheRead = Math.max(prev.cacheRead, usage.cacheRead);
  prev.cacheWrite = Math.max(prev.cacheWrite, usage.cacheWrite);
  return delta;
}

/** Counts an assistant record's usage once per API message. */
export function countAssistantUsage(state: UsageState, message: Json): void {
  const usage = usageOf(message.usage);
  const model = asString(message.model) ?? 'unknown';
  const id = asString(message.id);
  let delta = usage;
  if (id) {
    const seen = state.recent.find((r) => r[0] === id);
    if (seen) delta = growth(seen[2], usage);
    else {
      state.recent.push([id, model, { ...usage }]);
      if (state.recent.length > RECENT_IDS) state.recent.shift();
    }
  }
  addTokens(state.tokens, delta);
  addInto(state.byModel, model, delta);
  addInto(state.uncosted, model, delta);
}

/** Applies a `cost-state` record. */
export function applyCostState(state: UsageState, record: Json): void {
  const total = asNumber(record.totalCostUSD);
  if (total === null || total < 0) return;
  const group = String(asNumber(record.startTime) ?? 'unknown');
  state.costGroups[group] = Math.max(state.costGroups[group] ?? 0, total);
  state.uncosted = {};
}

/** What a fork leaves out of its own cost (forks.ts): its parent's messages and the running cost carried with them. */
export interface CostShare {
  sharedByModel: Record<string, TokenCounts>;
  carried: { group: string; totalUsd: number } | null;
}

function minus(a: Record<string, TokenCounts>, b: Record<string, TokenCounts>): Record<string, TokenCounts> {
  const out: Record<string, TokenCounts> = {};
  for (const [model, t] of Object.entries(a)) {
    const less = ownValue(b, model);
    setOwn(out, model, less ? { input: Math.max(0, t.input - less.input), output: Math.max(0, t.output - less.output),
      cacheRead: Math.max(0, t.cacheRead - less.cacheRead), cacheWrite: Math.max(0, t.cacheWrite - less.cacheWrite) } : { ...t });
  }
  return out;
}

/**
 * USD cost of the session, or null when neither a cost record nor the price table can say. A fork
 * (`share`) leaves out the running cost its cost-state group carried over from the parent, and,
 * before its first cost record, the list price of the copied messages.
 */
export function costOf(state: UsageState, share?: CostShare): number | null {
  const groups = { ...state.costGroups };
  const carried = share?.carried;
  // Only the group the fork continued holds the parent's cost; a group of another startTime is the fork's own.
  if (carried && groups[carried.group] !== undefined) groups[carried.group] = Math.max(0, (groups[carried.group] ?? 0) - carried.totalUsd);
  const totals = Object.values(groups);
  if (totals.length === 0) {
    if (Object.keys(state.byModel).length === 0) return null;
    return roundUsd(priceByModel(share ? minus(state.byModel, share.sharedByModel) : state.byModel));
  }
  const recorded = totals.reduce((a, b) => a + b, 0);
  // Messages after the last cost record (a fork's copies always precede its first one): add their
  // list price when known; else the recorded figure stands (a lower bound until Claude Code writes its next cost record).
  const extra = priceByModel(state.uncosted) ?? 0;
  return roundUsd(recorded + extra);
}

function roundUsd(n: number | null): number | null {
  return n === null ? null : Math.round(n * 1e6) / 1e6;
}
