// Reconnect delays: doubling to a cap, jittered downwards, reset by a success.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createBackoff } from './backoff.ts';

it('doubles from the first delay to the cap, and starts over after a success', () => {
  const b = createBackoff({ firstMs: 100, maxMs: 1000, random: () => 0 });
  assert.deepEqual([b.next(), b.next(), b.next(), b.next(), b.next(), b.next()], [100, 200, 400, 800, 1000, 1000]);
  assert.equal(b.attempts(), 6);
  b.reset();
  assert.equal(b.next(), 100);
});

it('jitter only shortens a delay, by at most a fifth', () => {
  const b = createBackoff({ firstMs: 1000, maxMs: 1000, random: () => 0.999 });
  const d = b.next();
  assert.ok(d >= 800 && d <= 1000, String(d));
});
