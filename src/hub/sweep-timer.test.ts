import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSweepTimer } from './sweep-timer.ts';

test('every activeMs while things happen, every quietMs once quiet, back to activeMs at the first activity', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let now = 0;
  let sweeps = 0;
  const timer = startSweepTimer({ sweep: () => sweeps++, activeMs: 500, quietMs: 1000, quietAfterMs: 2000, clock: () => now });
  const advance = (ms: number): void => {
    for (let i = 0; i < ms; i += 100) {
      now += 100;
      t.mock.timers.tick(100);
    }
  };
  advance(2000);
  assert.equal(sweeps, 4, 'active: every 500 ms');
  advance(3000);
  assert.equal(sweeps, 7, 'quiet: every second');
  advance(400);
  timer.activity();
  advance(500);
  assert.equal(sweeps, 8, 'activity: the next comes activeMs after it');
  advance(500);
  assert.equal(sweeps, 9);
  timer.close();
  advance(5000);
  assert.equal(sweeps, 9);
});
