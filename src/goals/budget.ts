/**
 * Budget and ceiling normalisation, in one place. A budget is a positive integer given
 * as a number or a trimmed numeric string; anything else — '', 'off', 0, negative, fractional, null —
 * means no budget (null), never 0: a 0 budget would settle every goal before its first turn.
 */
export function normaliseBudget(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value === 'string') {
    const t = value.trim();
    if (!/^\d+$/.test(t)) return null;
    const n = Number(t);
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  }
  return null;
}

/** Turn ceiling when none is given: a goal always has one, so no goal drives forever. */
export const DEFAULT_MAX_TURNS = 50;
/** Highest accepted ceiling. */
export const MAX_MAX_TURNS = 10_000;

/** A ceiling given by the operator: a positive integer up to MAX_MAX_TURNS, else the default. */
export function normaliseMaxTurns(value: unknown): number {
  const n = normaliseBudget(value);
  return n === null ? DEFAULT_MAX_TURNS : Math.min(n, MAX_MAX_TURNS);
}
