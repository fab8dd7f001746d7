// Budgets normalise in one place; anything but a positive integer is no budget (null), never 0.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MAX_TURNS, normaliseBudget, normaliseMaxTurns } from './budget.ts';

it('no budget for empty, off, 0, negative, fractional, null and non-numbers', () => {
  for (const v of ['', 'off', 0, -5, '-5', '1.5', 1.5, null, undefined, 'abc', '12abc', NaN, Infinity, true, {}, ' ', '0']) {
    assert.equal(normaliseBudget(v), null, `for ${JSON.stringify(v)}`);
  }
});

it('a positive integer, as a number or a trimmed numeric string, is a budget', () => {
  assert.equal(normaliseBudget(5000), 5000);
  assert.equal(normaliseBudget('5000'), 5000);
  assert.equal(normaliseBudget('  42 \n'), 42);
});

it('the turn ceiling always exists: a bad value takes the default, a huge one is capped', () => {
  assert.equal(normaliseMaxTurns(undefined), DEFAULT_MAX_TURNS);
  assert.equal(normaliseMaxTurns('off'), DEFAULT_MAX_TURNS);
  assert.equal(normaliseMaxTurns('3'), 3);
  assert.equal(normaliseMaxTurns(1e9), 10_000);
});
