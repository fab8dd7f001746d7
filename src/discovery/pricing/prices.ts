/**
 * List prices in USD per million tokens, by canonical model id (see normalise.ts for how real
 * model strings are reduced to these keys).
 *
 * Where the figures come from (PRICES_AS_OF, PRICES_SOURCE): the vendors' public price pages
 * (anthropic.com/pricing, platform.openai.com/docs/pricing, ai.google.dev/pricing), standard tier,
 * prompts up to 200k tokens. They change; update the table, its date, and nothing else. Cache write is
 * Anthropic's 5-minute cache write (1.25 × input); OpenAI has no cache-write surcharge, so
 * cacheWrite = input there; Gemini's cache storage fee is per hour, not per token, and not counted.
 * A model missing from this table gets a null cost rather than a guess from a similar name.
 * The Anthropic and OpenAI rows were checked against the table ccusage 20.0.24 ships (LiteLLM's),
 * except o3 and o4-mini, where that table holds other prices (README, "Differences from ccusage").
 */
export const PRICES_AS_OF = '2026-12-01';
export const PRICES_SOURCE = 'vendor list prices: anthropic.com/pricing, platform.openai.com/docs/pricing, ai.google.dev/pricing (standard tier, prompts up to 200k tokens)';

export interface ModelPrice {
  /** USD per million uncached input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
  /** USD per million cache-read input tokens. */
  cacheRead: number;
  /** USD per million cache-write input tokens. */
  cacheWrite: number;
}

function anthropic(input: number, output: number): ModelPrice {
  // Anthropic's rule: cache read = 0.1 × input, 5-minute cache write = 1.25 × input.
  return { input, output, cacheRead: round(input * 0.1), cacheWrite: round(input * 1.25) };
}

function openai(input: number, output: number, cachedInput: number): ModelPrice {
  return { input, output, cacheRead: cachedInput, cacheWrite: input };
}

function gemini(input: number, output: number, cachedInput: number): ModelPrice {
  return { input, output, cacheRead: cachedInput, cacheWrite: input };
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

export const PRICES: Readonly<Record<string, ModelPrice>> = {
  // Anthropic: current models
  'claude-opus-4-6': anthropic(5, 25),
  'claude-sonnet-4-6': anthropic(3, 15),
  'claude-opus-4-5': anthropic(5, 25),
  'claude-opus-4-1': anthropic(15, 75),
  'claude-opus-4': anthropic(15, 75),
  'claude-sonnet-4-5': anthropic(3, 15),
  'claude-sonnet-4': anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  // Anthropic: older models still seen in transcripts
  'claude-3-7-sonnet': anthropic(3, 15),
  'claude-3-5-sonnet': anthropic(3, 15),
  'claude-3-5-haiku': anthropic(0.8, 4),
  'claude-3-opus': anthropic(15, 75),
  'claude-3-haiku': { input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite: 0.3 },
  // OpenAI
  'gpt-5.2': openai(1.75, 14, 0.175),
  'gpt-5.2-codex': openai(1.75, 14, 0.175),
  'gpt-5.1': openai(1.25, 10, 0.125),
  'gpt-5.1-codex-max': openai(1.25, 10, 0.125),
  'gpt-5.1-codex-mini': openai(0.25, 2, 0.025),
  'gpt-5.1-codex': openai(1.25, 10, 0.125),
  'gpt-5': openai(1.25, 10, 0.125),
  'gpt-5-codex': openai(1.25, 10, 0.125),
  'gpt-5-mini': openai(0.25, 2, 0.025),
  'gpt-5-nano': openai(0.05, 0.4, 0.005),
  'gpt-4.1': openai(2, 8, 0.5),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
  'gpt-4.1-nano': openai(0.1, 0.4, 0.025),
  'gpt-4o': openai(2.5, 10, 1.25),
  'gpt-4o-mini': openai(0.15, 0.6, 0.075),
  o3: openai(2, 8, 0.5),
  'o3-mini': openai(1.1, 4.4, 0.55),
  'o4-mini': openai(1.1, 4.4, 0.275),
  o1: openai(15, 60, 7.5),
  // Google (Gemini CLI; cached input is a subset of input there, as with OpenAI)
  'gemini-3-pro-preview': gemini(2, 12, 0.2),
  'gemini-2.5-pro': gemini(1.25, 10, 0.125),
  'gemini-2.5-flash': gemini(0.3, 2.5, 0.03),
  'gemini-2.5-flash-lite': gemini(0.1, 0.4, 0.01),
  'gemini-2.0-flash': gemini(0.1, 0.4, 0.025),
};
