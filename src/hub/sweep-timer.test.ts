import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSweepTimer } from './sweep-timer.ts';

test('every activeMs while things happen, every quietMs once quiet, back to activeMs at the first activity', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let now = 0;
  let sweeps = 0;
  const timer = startSweepTimer({ sweep: () => sweeps++, activeMs: 500, quietMs: 1000, quietAfterMs: 2000, clock: () => now });
  timer.activity();
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

test('every stillMs once nothing has happened for stillAfterMs; activity brings activeMs back', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let now = 0;
  let sweeps = 0;
  const timer = startSweepTimer({ sweep: () => sweeps++, activeMs: 500, quietMs: 1000, quietAfterMs: 2000, stillMs: 2000, stillAfterMs: 6000, clock: () => now });
  timer.activity();
  const advance = (ms: number): void => {
    for (let i = 0; i < ms; i += 100) {
      now += 100;
      t.mock.timers.tick(100);
    }
  };
  advance(6000);
  assert.equal(sweeps, 8, 'active for 2 s (4), quiet for 4 s (4)');
  advance(6000);
  assert.equal(sweeps, 11, 'still: every 2 s');
  advance(300);
  timer.activity();
  advance(500);
  assert.equal(sweeps, 12, 'the next comes activeMs after the activity, not at the end of the still interval');
  timer.close();
});

test('it starts still: its own start is not activity; the first activity brings activeMs', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let now = 1_000_000;
  let sweeps = 0;
  const timer = startSweepTimer({ sweep: () => sweeps++, clock: () => now });
  const advance = (ms: number): void => {
    for (let i = 0; i < ms; i += 100) {
      now += 100;
      t.mock.timers.tick(100);
    }
  };
  advance(10_000);
  assert.equal(sweeps, 5, 'every 2 s from the start (defaults)');
  advance(100);
  timer.activity();
  advance(1000);
  assert.equal(sweeps, 7, 'every 500 ms once something happens');
  timer.close();
});
