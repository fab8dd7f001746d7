import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createIndexingTracker } from './indexing.ts';

const figure = (done: number) => ({ harness: 'claude' as const, total: 4, done, bytesTotal: 40, bytesDone: done * 10 });

test('re-lists while indexing wait relistMs, or ten times the last listing when that is longer', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let listMs: number | null = null;
  const relists: number[] = [];
  let now = 0;
  const tracker = createIndexingTracker({ publish: () => {}, relist: () => relists.push(now), relistMs: 250, lastListMs: () => listMs });
  const advance = (ms: number): void => {
    now += ms;
    t.mock.timers.tick(ms);
  };
  tracker.progress(figure(0));
  tracker.progress(figure(1));
  advance(250);
  assert.deepEqual(relists, [250], 'a listing of unknown cost: relistMs');
  listMs = 100;
  tracker.progress(figure(2));
  advance(999);
  assert.deepEqual(relists, [250], 'a 100 ms listing: not again before 1 s');
  advance(1);
  assert.deepEqual(relists, [250, 1250]);
  tracker.close();
});

test('idle() resolves at once when no index runs, else once every running one has finished, or on close', async () => {
  const tracker = createIndexingTracker({ publish: () => {}, relist: () => {} });
  await tracker.idle();
  tracker.progress(figure(0));
  tracker.progress({ ...figure(0), harness: 'codex' });
  let idle = false;
  const waiting = tracker.idle().then(() => (idle = true));
  tracker.finished('claude');
  await new Promise<void>((r) => setImmediate(r));
  assert.equal(idle, false, 'codex still reads');
  tracker.finished('codex');
  await waiting;
  tracker.progress(figure(1));
  const closing = tracker.idle();
  tracker.close();
  await closing;
});
