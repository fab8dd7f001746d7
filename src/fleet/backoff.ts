/**
 * Reconnect delays: doubling from `firstMs` to `maxMs`, each with up to 20 % random jitter subtracted
 * so many hosts that lost the database together do not all come back in the same millisecond.
 * Pure: the random source is a parameter.
 */
export interface BackoffOptions {
  /** First delay, ms. Default: 250. */
  firstMs?: number;
  /** Largest delay, ms. Default: 5000 (a host back within seconds of the database). */
  maxMs?: number;
  /** Returns a number in [0, 1). Default: Math.random. */
  random?: () => number;
}

export interface Backoff {
  /** The delay before the next attempt; each call after a failure doubles it (up to the cap). */
  next(): number;
  /** After a success: the next failure starts again from the first delay. */
  reset(): void;
  /** Failures since the last success. */
  attempts(): number;
}

export function createBackoff(options: BackoffOptions = {}): Backoff {
  const first = options.firstMs ?? 250;
  const max = options.maxMs ?? 5000;
  const random = options.random ?? Math.random;
  let n = 0;
  return {
    next() {
      const base = Math.min(max, first * 2 ** Math.min(n, 30));
      n++;
      return Math.max(1, Math.round(base * (1 - 0.2 * random())));
    },
    reset() {
      n = 0;
    },
    attempts: () => n,
  };
}
