// The list's row order (web/src/list-order.ts): a live change that keeps the order valid patches one
// row in place (no re-sort); one that moves the row, or crosses the filter, re-sorts. Pure: no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_FILTERS, orderRows, type Sort } from '../../web/src/list-order.ts';
import type { Session } from '../../web/src/types.ts';

const session = (i: number, over: Partial<Session> = {}): Session => ({
  harness: 'claude', id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, title: `Session ${i}`, cwd: `/r/${i % 3}`, repoRoot: null, branch: null,
  status: 'idle', statusSince: null, waitingFor: null, live: false, model: null, pids: [], pane: null, prLinks: [], startedAt: null, costUsd: null,
  lastActivityAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), tokens: { input: i, output: 0, cacheRead: 0, cacheWrite: 0 },
  ...over,
} as Session);

const BY_STATUS: Sort = { key: 'status', dir: 1 };
const all = Array.from({ length: 200 }, (_, i) => session(i));

test('a change that keeps the row between its neighbours is patched in place', () => {
  const first = orderRows(null, all, NO_FILTERS, BY_STATUS);
  assert.equal(first.full, true);
  const next = all.slice();
  next[50] = { ...(all[50] as Session), title: 'renamed', costUsd: 3 };
  const o = orderRows(first, next, NO_FILTERS, BY_STATUS);
  assert.equal(o.full, false, 'no re-sort');
  assert.equal(o.rows[first.index.get(`claude:${(all[50] as Session).id}`) as number], next[50]);
  assert.deepEqual(o.rows.map((s) => s.id), first.rows.map((s) => s.id));
  assert.notEqual(o.rows, first.rows, 'a new array, so React sees the change');
});

test('a change that moves the row (its sort key) re-sorts it into place', () => {
  const first = orderRows(null, all, NO_FILTERS, BY_STATUS);
  const next = all.slice();
  next[10] = { ...(all[10] as Session), status: 'waiting', live: true };
  const o = orderRows(first, next, NO_FILTERS, BY_STATUS);
  assert.equal(o.full, true);
  assert.equal(o.rows[0], next[10], 'the waiting live session leads');
});

test('a change across the filter re-filters; new sort or filters recompute', () => {
  const live = { ...NO_FILTERS, live: 'true' };
  const first = orderRows(null, all, live, BY_STATUS);
  assert.equal(first.rows.length, 0);
  const next = all.slice();
  next[3] = { ...(all[3] as Session), live: true };
  const o = orderRows(first, next, live, BY_STATUS);
  assert.deepEqual([o.full, o.rows.length], [true, 1]);
  const byTitle = orderRows(o, next, live, { key: 'title', dir: -1 });
  assert.equal(byTitle.full, true);
  assert.equal(orderRows(byTitle, next, live, byTitle.sort), byTitle, 'same inputs, same order object');
});

test('descending order is the exact reverse comparator (patching respects it)', () => {
  const desc: Sort = { key: 'tokens', dir: -1 };
  const first = orderRows(null, all, NO_FILTERS, desc);
  assert.equal(first.rows[0]?.tokens.input, 0);
  const next = all.slice();
  next[100] = { ...(all[100] as Session), tokens: { input: 100, output: 0, cacheRead: 0, cacheWrite: 0 }, title: 'same tokens' };
  assert.equal(orderRows(first, next, NO_FILTERS, desc).full, false);
  next[100] = { ...(all[100] as Session), tokens: { input: 5000, output: 0, cacheRead: 0, cacheWrite: 0 } };
  const moved = orderRows(first, next, NO_FILTERS, desc);
  assert.equal(moved.full, true);
  assert.equal(moved.rows[moved.rows.length - 1], next[100]);
});
