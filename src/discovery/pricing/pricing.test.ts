import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { priceTokens, priceFor, normaliseModel, priceByModel } from './index.ts';

const tokens = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({ input, output, cacheRead, cacheWrite });

describe('pricing', () => {
  it('prices a known Claude model per million tokens, cache included', () => {
    // Sonnet 4.5: $3 in, $15 out, $0.30 cache read, $3.75 cache write.
    assert.equal(priceTokens('claude-sonnet-4-5-20250929', tokens(1_000_000, 1_000_000, 1_000_000, 1_000_000)), 3 + 15 + 0.3 + 3.75);
    assert.equal(priceTokens('claude-opus-4-5', tokens(1000, 100)), 0.0075);
  });

  it('prices OpenAI models with cached input', () => {
    assert.equal(priceTokens('gpt-4o-mini-2024-07-18', tokens(2_000_000, 0, 2_000_000)), 0.45);
    assert.equal(priceTokens('openai/gpt-5', tokens(0, 1_000_000)), 10);
  });

  it('unknown models cost null, not a guess from a similar name', () => {
    assert.equal(priceTokens('claude-opus-5-5', tokens(10, 10)), null);
    assert.equal(priceTokens('claude-opus-9-9', tokens(10, 10)), null);
    assert.equal(priceTokens('', tokens(10, 10)), null);
    assert.equal(priceTokens(null, tokens(10, 10)), null);
    assert.equal(priceFor('gpt-4'), null, 'gpt-4 is not gpt-4o');
  });

  it('normalises provider prefixes, dates and tags', () => {
    assert.equal(normaliseModel('us.anthropic.claude-3-5-sonnet-20241022-v2:0'), 'claude-3-5-sonnet');
    assert.equal(normaliseModel('claude-3-5-sonnet@20241022'), 'claude-3-5-sonnet');
    assert.equal(normaliseModel('claude-sonnet-4-5[1m]'), 'claude-sonnet-4-5');
    assert.equal(normaliseModel('Anthropic/Claude-Haiku-4-5-latest'), 'claude-haiku-4-5');
    assert.equal(normaliseModel('gpt-4.1-mini-2025-04-14'), 'gpt-4.1-mini');
    assert.equal(normaliseModel('claude-sonnet-4.5'), 'claude-sonnet-4-5', "Copilot's dotted Claude names");
    assert.equal(normaliseModel('gpt-5.1-codex'), 'gpt-5.1-codex', 'OpenAI keeps its dots');
  });

  it('zero tokens on a known model cost 0', () => {
    assert.equal(priceTokens('claude-haiku-4-5', tokens(0, 0)), 0);
  });

  it('prices tokens kept per model each at its own model; an unknown part makes the whole null', () => {
    const t = tokens(100, 10);
    assert.equal(priceByModel({ 'gpt-5-codex': t, 'gpt-5-mini': t }), 0.00027);
    assert.equal(priceByModel({ '': t }, 'gpt-5-mini'), 0.000045, "'' takes the fallback model");
    assert.equal(priceByModel({ 'gpt-5': t, 'fake-model': t }), null);
    assert.equal(priceByModel({ 'gpt-5': t, 'fake-model': tokens(0, 0) }), 0.000225, 'a part without tokens is skipped');
  });
});
