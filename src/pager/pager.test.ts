// The pager over a real SQLite store in a temp dir: store-first asks, bounded waits, late answers,
// answer-once, limits, expiry, and a restart between ask and answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore, type Store } from '../store/index.ts';
import { createEventBus, type MusterEvent } from '../events/index.ts';
import { MusterError } from '../errors/index.ts';
import { createPager, type Caller, type PagerSettings } from './pager.ts';
import type { PagesRepository } from './types.ts';

const caller = (sessionId: string | null = null, key = 'mcp:one'): Caller => ({
  attribution: { sessionId, harness: sessionId ? 'claude' : null, via: sessionId ? 'header' : 'none', launchId: null, cwd: null, note: null },
  fallbackKey: key,
});
const SID = '11111111-2222-4333-8444-555555555555';

function setup(settings: Partial<PagerSettings> = {}, clock?: () => number, more: { expiryRecheckMs?: number; wrap?: (r: PagesRepository) => PagesRepository } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'muster-pager-'));
  const path = join(dir, 'muster.db');
  let store: Store = openSqliteStore({ path });
  const bus = createEventBus();
  const events: MusterEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const s: PagerSettings = { askWaitSeconds: 1, pageExpiryHours: 24, maxPendingPerSession: 50, ...settings };
  const make = () => createPager({ repo: more.wrap ? more.wrap(store.pages) : store.pages, bus, settings: async () => s, clock, expiryRecheckMs: more.expiryRecheckMs });
  const ctx = {
    store,
    bus,
    events,
    pager: make(),
    /** Simulates a daemon restart: a new store connection and a new pager over the same file. */
    restart() {
      ctx.pager.close();
      store.close();
      store = openSqliteStore({ path });
      ctx.store = store;
      ctx.pager = make();
    },
    cleanup() {
      ctx.pager.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return ctx;
}

const codeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof MusterError, String(e));
    return e.code;
  }
  return 'no error';
};

test('an ask is stored (and page.opened published) before anyone waits; an unanswered wait returns pending within its bound', async (t) => {
  const c = setup();
  t.after(c.cleanup);
  const page = await c.pager.ask({ question: 'Deploy to prod?', choices: ['yes', 'no'] }, caller(SID));
  assert.match(page.id, /^pag_[0-9A-Z]{26}$/);
  assert.equal((await c.store.pages.get(page.id))?.status, 'pending');
  assert.deepEqual(c.events.map((e) => e.type), ['page.opened']);
  const t0 = Date.now();
  const out = await c.pager.wait(page.id, { waitMs: 150 });
  const took = Date.now() - t0;
  assert.deepEqual(out, { status: 'pending', pageId: page.id });
  assert.ok(took >= 140 && took < 1000, `waited ${took} ms`);
});

test('the wait is capped by askWaitSeconds even when a longer one is asked for', async (t) => {
  const c = setup({ askWaitSeconds: 1 });
  t.after(c.cleanup);
  const page = await c.pager.ask({ question: 'q' }, caller());
  const t0 = Date.now();
  assert.equal((await c.pager.wait(page.id, { waitMs: 60_000 })).status, 'pending');
  assert.ok(Date.now() - t0 < 1500);
});

test('an answer wakes the waiting call at once; it is committed before the wake, then marked delivered', async (t) => {
  const c = setup({ askWaitSeconds: 30 });
  t.after(c.cleanup);
  const page = await c.pager.ask({ question: 'Which DB?', choices: ['sqlite', 'postgres'] }, caller(SID));
  const waiting = c.pager.wait(page.id);
  let statusAtAnswerEvent = '';
  c.bus.subscribe((e) => {
    if (e.type === 'page.answered') void c.store.pages.get(page.id).then((p) => (statusAtAnswerEvent = p?.status ?? ''));
  });
  await new Promise((r) => setTimeout(r, 20));
  const t0 = Date.now();
  await c.pager.answer(page.id, { choice: 1 });
  const out = await waiting;
  assert.ok(Date.now() - t0 < 200);
  assert.deepEqual(out, { status: 'answered', pageId: page.id, answer: 'postgres', choice: 1 });
  assert.ok(['answered', 'delivered'].includes(statusAtAnswerEvent));
  await new Promise((r) => setImmediate(r)); // delivery is recorded right after the result is handed out
  const stored = await c.store.pages.get(page.id);
  assert.equal(stored?.status, 'delivered');
  assert.ok(stored?.deliveredAt);
  assert.deepEqual(c.events.map((e) => e.type), ['page.opened', 'page.answered', 'page.delivered']);
});

test('a late answer (nobody waiting) is returned by the next wait, at once', async (t) => {
  const c = setup({ askWaitSeconds: 30 });
  t.after(c.cleanup);
  const page = await c.pager.ask({ question: 'late?' }, caller());
  assert.equal((await c.pager.wait(page.id, { waitMs: 10 })).status, 'pending');
  await c.pager.answer(page.id, { text: 'yes, go' });
  const t0 = Date.now();
  assert.deepEqual(await c.pager.wait(page.id), { status: 'answered', pageId: page.id, answer: 'yes, go', choice: null });
  assert.ok(Date.now() - t0 < 100);
  // Asking again after delivery still returns the answer (idempotent), it is not lost.
  assert.equal((await c.pager.wait(page.id)).status, 'answered');
});

test('a restart loses nothing: pending stays pending, an answer given before the restart is delivered after it', async (t) => {
  const c = setup({ askWaitSeconds: 30 });
  t.after(c.cleanup);
  const a = await c.pager.ask({ question: 'A?' }, caller());
  const b = await c.pager.ask({ question: 'B?' }, caller());
  await c.pager.answer(a.id, { text: 'answer A' });
  c.restart();
  assert.equal((await c.store.pages.get(b.id))?.status, 'pending');
  assert.deepEqual(await c.pager.wait(a.id), { status: 'answered', pageId: a.id, answer: 'answer A', choice: null });
  const waitingB = c.pager.wait(b.id);
  await c.pager.answer(b.id, { text: 'answer B' });
  assert.equal((await waitingB).status, 'answered');
});

test('bad input and wrong transitions are typed errors', async (t) => {
  const c = setup();
  t.after(c.cleanup);
  assert.equal(await codeOf(c.pager.ask({}, caller())), 'invalid_argument');
  assert.equal(await codeOf(c.pager.ask({ question: '   ' }, caller())), 'invalid_argument');
  assert.equal(await codeOf(c.pager.ask({ question: 'x'.repeat(4001) }, caller())), 'invalid_argument');
  assert.equal(await codeOf(c.pager.ask({ question: 'q', choices: ['only one'] }, caller())), 'invalid_argument');
  assert.equal(await codeOf(c.pager.ask({ question: 'q', urgency: 'panic' }, caller())), 'invalid_argument');
  assert.equal(await codeOf(c.pager.notify({ message: 'm', level: 'loud' }, caller())), 'invalid_argument');
  assert.equal(await codeOf(c.pager.wait('nope')), 'invalid_id');
  assert.equal(await codeOf(c.pager.wait('pag_00000000000000000000000000')), 'page_not_found');
  const p = await c.pager.ask({ question: 'q', choices: ['a', 'b'] }, caller());
  assert.equal(await codeOf(c.pager.answer(p.id, { choice: 2 })), 'invalid_argument');
  assert.equal(await codeOf(c.pager.answer(p.id, { text: 'x', choice: 0 })), 'invalid_argument');
  assert.equal(await codeOf(c.pager.answer(p.id, {})), 'invalid_argument');
  await c.pager.answer(p.id, { choice: 0 });
  assert.equal(await codeOf(c.pager.answer(p.id, { choice: 1 })), 'page_already_answered');
  assert.equal(await codeOf(c.pager.cancel(p.id)), 'page_closed');
  const q = await c.pager.ask({ question: 'q2' }, caller());
  await c.pager.cancel(q.id);
  assert.equal(await codeOf(c.pager.answer(q.id, { text: 'too late' })), 'page_closed');
  assert.equal((await c.pager.wait(q.id)).status, 'cancelled');
  const n = await c.pager.notify({ message: 'done', level: 'success' }, caller());
  assert.equal(await codeOf(c.pager.wait(n.id)), 'invalid_argument');
  assert.equal(await codeOf(c.pager.answer(n.id, { text: 'x' })), 'invalid_argument');
  assert.equal((await c.pager.dismiss(n.id)).status, 'dismissed');
});

test('page text is stored verbatim (plain text, markup untouched)', async (t) => {
  const c = setup();
  t.after(c.cleanup);
  const text = '<script>alert(1)</script> **bold** \u2028 ünïcode';
  const p = await c.pager.ask({ question: text, context: '<b>ctx</b>' }, caller());
  const stored = await c.store.pages.get(p.id);
  assert.equal(stored?.question, text);
  assert.equal(stored?.context, '<b>ctx</b>');
});

test('per-session limit: concurrent asks never overshoot; the error says what to do; other sessions are unaffected', async (t) => {
  const c = setup({ maxPendingPerSession: 3 });
  t.after(c.cleanup);
  const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => c.pager.ask({ question: `q${i}` }, caller(SID))));
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 3);
  const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  assert.equal((rejected.reason as MusterError).code, 'too_many_pending');
  assert.match((rejected.reason as MusterError).message, /cancel_page/);
  await c.pager.ask({ question: 'other' }, caller(null, 'mcp:two'));
  // Notices have their own count, so questions cannot be starved by them.
  await c.pager.notify({ message: 'fyi', level: 'info' }, caller(SID));
});

test('expiry: pending pages expire at their time, wake their waiters, and are counted', async (t) => {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const c = setup({ pageExpiryHours: 1, askWaitSeconds: 30 }, () => now);
  t.after(c.cleanup);
  const p = await c.pager.ask({ question: 'q' }, caller());
  const answered = await c.pager.ask({ question: 'q2' }, caller());
  await c.pager.answer(answered.id, { text: 'a' });
  const waiting = c.pager.wait(p.id);
  now += 3600_000;
  const stop = c.pager.start(); // the sweep runs once at start
  t.after(stop);
  assert.deepEqual(await waiting, { status: 'expired', pageId: p.id });
  assert.equal((await c.store.pages.get(answered.id))?.status, 'answered', 'answered pages never expire');
  assert.ok(c.events.some((e) => e.type === 'page.expired'));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(c.pager.counts().expiredUndecided, 1);
});

test('expiry is a timer for the earliest pending page, not a poll: none runs while nothing is pending', async (t) => {
  let now = Date.parse('2026-01-01T00:00:00Z');
  let checks = 0;
  const wrap = (r: PagesRepository): PagesRepository => ({ ...r, expireDue: (at) => { checks++; return r.expireDue(at); } });
  // The recheck bound stands in for the hours a page waits: the timer fires after 15 ms of real time.
  const c = setup({ pageExpiryHours: 1 }, () => now, { expiryRecheckMs: 15, wrap });
  t.after(c.cleanup);
  const stop = c.pager.start();
  t.after(stop);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(checks, 1, 'with nothing pending, only the check at start: no timer');
  const p = await c.pager.ask({ question: 'q' }, caller());
  await new Promise((r) => setTimeout(r, 60));
  assert.ok(checks >= 2, `a pending page arms the timer (${checks} checks)`);
  assert.equal((await c.pager.get(p.id)).status, 'pending', 'not before its time');
  now += 3600_000;
  for (let i = 0; i < 50 && (await c.pager.get(p.id)).status === 'pending'; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal((await c.pager.get(p.id)).status, 'expired', 'expired by the timer once its time came');
  assert.ok(c.events.some((e) => e.type === 'page.expired'));
  await new Promise((r) => setTimeout(r, 30)); // a last check may still be on its way
  const settled = checks;
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(checks, settled, 'nothing pending again: the timer is not re-armed');
});

test('close() releases every waiter with pending (shutdown never hangs a tool call)', async () => {
  const c = setup({ askWaitSeconds: 30 });
  const p = await c.pager.ask({ question: 'q' }, caller());
  const waiting = c.pager.wait(p.id);
  await new Promise((r) => setTimeout(r, 10));
  c.pager.close();
  assert.deepEqual(await waiting, { status: 'pending', pageId: p.id });
  c.cleanup();
});
