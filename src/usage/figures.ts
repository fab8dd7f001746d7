/**
 * Adding rollup rows into figures: tokens, the priced cost, and what could not be priced. A row's cost
 * is what its harness recorded for the records that carry one, else the price table's for its model.
 */
import { priceTokens } from '../discovery/pricing/index.ts';
import type { UsageFigures, UsageRollupRow, UsageTokens } from './types.ts';

export interface FiguresAcc {
  tokens: UsageTokens;
  pricedUsd: number;
  unpricedTokens: number;
  unpricedModels: Set<string>;
  /** Sessions seen, by `sessionNo` where the rows carry one, else by id (rows of one report all do or all do not). */
  sessions: Set<string | number>;
  messages: number;
}

export function createAcc(): FiguresAcc {
  return { tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, pricedUsd: 0, unpricedTokens: 0, unpricedModels: new Set(), sessions: new Set(), messages: 0 };
}

/** USD of one rollup row, or null when its model has no price and its harness recorded none. */
export function rowCost(r: UsageRollupRow): number | null {
  return r.cost !== undefined ? r.cost : costOf(r);
}

export function costOf(r: UsageRollupRow): number | null {
  if (r.recorded === r.count) return r.recordedUsd;
  // Some records carry no recorded cost: the table prices the row's tokens. (Rows mix the two only
  // when a harness records cost for some messages of a model and not others, which none does today.)
  return priceTokens(r.model, r.tokens);
}

export function addRow(acc: FiguresAcc, r: UsageRollupRow, cost: number | null): void {
  const t = acc.tokens;
  t.input += r.tokens.input;
  t.output += r.tokens.output;
  t.cacheRead += r.tokens.cacheRead;
  t.cacheWrite += r.tokens.cacheWrite;
  t.reasoning += r.tokens.reasoning;
  acc.messages += r.count;
  acc.sessions.add(r.sessionNo ?? r.sessionId);
  const n = r.tokens.input + r.tokens.output + r.tokens.cacheRead + r.tokens.cacheWrite;
  if (cost !== null) acc.pricedUsd += cost;
  else if (n > 0) {
    acc.unpricedTokens += n;
    acc.unpricedModels.add(r.model || '(unknown model)');
  }
}

const usd = (n: number): number => Math.round(n * 1e6) / 1e6;

export function figuresOf(acc: FiguresAcc): UsageFigures {
  const pricedUsd = usd(acc.pricedUsd);
  return {
    tokens: { ...acc.tokens },
    costUsd: acc.unpricedTokens > 0 ? null : pricedUsd,
    pricedUsd,
    unpricedTokens: acc.unpricedTokens,
    unpricedModels: [...acc.unpricedModels].sort(),
    sessions: acc.sessions.size,
    messages: acc.messages,
  };
}
