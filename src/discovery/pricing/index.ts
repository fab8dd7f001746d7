/**
 * Token pricing shared by every source: a list-price table by model and `priceTokens`.
 * Token counts follow Session.tokens: `input` excludes cache reads and cache writes.
 */
import type { TokenCounts } from '../../core/session.ts';
import { PRICES } from './prices.ts';
import type { ModelPrice } from './prices.ts';
import { normaliseModel } from './normalise.ts';

export type { ModelPrice } from './prices.ts';
export { PRICES, PRICES_AS_OF, PRICES_SOURCE } from './prices.ts';
export { normaliseModel } from './normalise.ts';

// Model strings repeat endlessly (one per message): each is normalised once. Bounded, as names come from files.
const memo = new Map<string, ModelPrice | null>();

/** The price of `model`, or null when the table does not know it. */
export function priceFor(model: string | null | undefined): ModelPrice | null {
  if (!model) return null;
  const hit = memo.get(model);
  if (hit !== undefined) return hit;
  // The model name comes from a transcript: `constructor` must not find Object's own members.
  const key = normaliseModel(model);
  const price = Object.hasOwn(PRICES, key) ? (PRICES[key] ?? null) : null;
  if (memo.size < 10_000) memo.set(model, price);
  return price;
}

/** USD cost of `tokens` on `model`; null for an unknown model (never a guess). */
export function priceTokens(model: string | null | undefined, tokens: TokenCounts): number | null {
  const p = priceFor(model);
  if (!p) return null;
  const usd =
    (tokens.input * p.input + tokens.output * p.output + tokens.cacheRead * p.cacheRead + tokens.cacheWrite * p.cacheWrite) / 1e6;
  // Round to a millionth of a dollar so sums of many small messages do not show float noise.
  return Math.round(usd * 1e6) / 1e6;
}

/**
 * USD cost of tokens kept per model (each part priced at its own model); parts without tokens are
 * skipped, a part keyed '' (model not known when its tokens arrived) is priced at `fallbackModel`.
 * Null when any part with tokens is on an unknown model (never a partial sum that looks whole).
 */
export function priceByModel(byModel: Readonly<Record<string, TokenCounts>>, fallbackModel: string | null = null): number | null {
  let sum = 0;
  for (const [model, t] of Object.entries(byModel)) {
    if (t.input + t.output + t.cacheRead + t.cacheWrite === 0) continue;
    const usd = priceTokens(model === '' ? fallbackModel : model, t);
    if (usd === null) return null;
    sum += usd;
  }
  return Math.round(sum * 1e6) / 1e6;
}
