/** Deterministic token usage, so tests can assert exact token counts a harness records. */
import type { Usage } from './types.ts';

/**
 * Usage of every reply that sets none: 100 uncached input tokens, 10 output tokens, no cache.
 * count_tokens answers `input` (100) too.
 */
export const DEFAULT_USAGE: Readonly<Required<Usage>> = Object.freeze({ input: 100, output: 10, cacheRead: 0, cacheWrite: 0 });

export function fullUsage(usage: Usage | undefined): Required<Usage> {
  return {
    input: usage?.input ?? DEFAULT_USAGE.input,
    output: usage?.output ?? DEFAULT_USAGE.output,
    cacheRead: usage?.cacheRead ?? 0,
    cacheWrite: usage?.cacheWrite ?? 0,
  };
}
