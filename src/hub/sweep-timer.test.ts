import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startSweepTimer, type SweepTimerOptions } from './sweep-timer.ts';

/** A sweep timer on mocked timers and a clock that `advance` moves with them, 100 ms at a time. */
function clocked(t: TestContext, options: Omit<SweepTimerOptions, 'sweep' | 'clock'>, start = 0) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let now = start;
  let sweeps = 0;
  const timer = startSweepTimer({ ...options, sweep: () => sweeps++, clock: () => now });
  const advance = (ms: number): void => {
    for (let i = 0; i < ms; i += 100) {
      now += 100;
      t.mock.timers.tick(100);
    }
  };
  return { timer, advance, sweeps: () => sweeps };
}

test('every activeMs while things happen, every quietMs once quiet, back to activeMs at the first activity', (t) => {
  const { timer, advance, sweeps } = clocked(t, { activeMs: 500, quietMs: 1000, quietAfterMs: 2000 });
  timer.activity();
  advance(2000);
  assert.equal(sweeps(), 4, 'active: every 500 ms');
  advance(3000);
  assert.equal(sweeps(), 7, 'quiet: every second');
  advance(400);
  timer.activity();
  advance(500);
  assert.equal(sweeps(), 8, 'activity: the next comes activeMs after it');
  advance(500);
  assert.equal(sweeps(), 9);
  timer.close();
  advance(5000);
  assert.equal(sweeps(), 9);
});

test('every stillMs once nothing has happened for stillAfterMs; activity brings activeMs back', (t) => {
  const { timer, advance, sweeps } = clocked(t, { activeMs: 500, quietMs: 1000, quietAfterMs: 2000, stillMs: 2000, stillAfterMs: 6000 });
  timer.activity();
  advance(6000);
  assert.equal(sweeps(), 8, 'active for 2 s (4), quiet for 4 s (4)');
  advance(6000);
  assert.equal(sweeps(), 11, 'still: every 2 s');
  advance(300);
  timer.activity();
  advance(500);
  assert.equal(sweeps(), 12, 'the next comes activeMs after the activity, not at the end of the still interval');
  timer.close();
});

test('it starts still: its own start is not activity; the first activity brings activeMs', (t) => {
  const { timer, advance, sweeps } = clocked(t, {}, 1_000_000);
  advance(10_000);
  assert.equal(sweeps(), 5, 'every 2 s from the start (defaults)');
  advance(100);
  timer.activity();
  advance(1000);
  assert.equal(sweeps(), 7, 'every 500 ms once something happens');
  timer.close();
});
