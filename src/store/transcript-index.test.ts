import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite.ts';
import type { Store } from './types.ts';
import { parseSearchQuery } from '../search/index.ts';
import { record } from '../usage/usage-fixtures.test-support.ts';
import { migrate } from './migrations.ts';
import { createSqliteTranscriptIndex, type SearchSink } from './transcript-index.ts';
import { createSqliteUsageRepository } from './usage.ts';

const ticks = async (n = 5): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};
/** Waits until `check` holds, at most 2 s (the drain after a hold writes a chunk every few ms). */
const soon = async (check: () => boolean): Promise<void> => {
  for (const deadline = Date.now() + 2000; !check() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
};

/** A store on a temp file and a second, read-only connection that sees what is committed. */
async function withStore(options: Omit<SqliteStoreOptions, 'path'>, run: (store: Store, count: (table: string) => number) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'muster-index-hold-'));
  const store = openSqliteStore({ path: join(dir, 'muster.db'), ...options });
  const peek = new Database(join(dir, 'muster.db'), { readonly: true });
  try {
    await run(store, (table) => (peek.prepare(`SELECT count(*) n FROM ${table}`).get() as { n: number }).n);
  } finally {
    peek.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const usage = (path: string, n: number) => Array.from({ length: n }, (_, i) => record({ iso: '2026-12-01T10:00:00Z', key: `${path}:${i}`, input: 1, output: 1 }));

test('a hold keeps the writes (answered from memory meanwhile); its release writes them at once, whatever the interval', async () => {
  await withStore({ indexFlushIntervalMs: 60_000 }, async (store, count) => {
    const release = store.transcriptIndex.hold?.();
    assert.ok(release, 'the SQLite index can hold');
    for (let i = 0; i < 5; i++) store.transcriptIndex.put({ path: `/t/${i}`, harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null, usage: usage(`/t/${i}`, 2) });
    await ticks();
    assert.equal(count('transcript_index'), 0, 'nothing is written while held');
    assert.equal(store.transcriptIndex.list('claude').length, 5, 'the listing is complete from memory');
    const released = performance.now();
    release();
    release(); // idempotent
    await soon(() => count('transcript_index') === 5);
    assert.equal(count('transcript_index'), 5, 'written right after the release, not an interval later');
    assert.ok(performance.now() - released < 1000);
    assert.equal(count('usage_records'), 10);
  });
});

test('a hold that lingers keeps the writes that long past its release; a flush writes them meanwhile', async () => {
  await withStore({ indexFlushIntervalMs: 60_000, indexHoldLingerMs: 300 }, async (store, count) => {
    const index = store.transcriptIndex;
    const release = index.hold?.();
    index.put({ path: '/a', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null, usage: usage('/a', 2) });
    const released = performance.now();
    release?.();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(count('transcript_index'), 0, 'still held 100 ms after the release');
    await soon(() => count('transcript_index') === 1);
    assert.equal(count('transcript_index'), 1, 'written once the linger is over');
    assert.ok(performance.now() - released >= 290, 'not before');

    const again = index.hold?.();
    index.put({ path: '/b', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null, usage: usage('/b', 2) });
    again?.();
    index.flush?.();
    assert.equal(count('transcript_index'), 2, 'a flush does not wait for the linger');
    assert.equal(count('usage_records'), 4);
  });
});

test('a hold past its row bound writes chunks as it goes (memory stays bounded); two holds release on the last', async () => {
  await withStore({ indexFlushIntervalMs: 60_000, indexHoldMaxRows: 100 }, async (store, count) => {
    const a = store.transcriptIndex.hold?.();
    const b = store.transcriptIndex.hold?.();
    store.transcriptIndex.put({ path: '/a', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null, usage: usage('/a', 60) });
    await ticks();
    assert.equal(count('transcript_index'), 0, 'below the bound: held');
    store.transcriptIndex.put({ path: '/b', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null, usage: usage('/b', 60) });
    await ticks();
    assert.equal(count('transcript_index'), 2, 'past it: written');
    store.transcriptIndex.put({ path: '/c', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null, usage: usage('/c', 1) });
    a?.();
    await ticks();
    assert.equal(count('transcript_index'), 2, 'one hold still stands');
    b?.();
    await soon(() => count('transcript_index') === 3);
    assert.equal(count('transcript_index'), 3);
  });
});

test('after a hold, the writes go out in small chunks while requests come and in large ones while none do', async () => {
  for (const busy of [true, false]) {
    await withStore({ indexFlushIntervalMs: 60_000, indexBusy: () => busy }, async (store, count) => {
      const release = store.transcriptIndex.hold?.();
      for (let i = 0; i < 4; i++) store.transcriptIndex.put({ path: `/t/${i}`, harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null, usage: usage(`/t/${i}`, 1500) });
      assert.equal(store.transcriptIndex.waiting?.(), 6000);
      release?.();
      while (count('transcript_index') === 0) await new Promise((r) => setImmediate(r));
      // Chunks of 2,048 rows (one put of 1,500) while busy, of 8,192 (all four) while not.
      assert.equal(count('transcript_index'), busy ? 1 : 4, `busy: ${busy}`);
      await soon(() => count('transcript_index') === 4);
      assert.equal(count('usage_records'), 6000);
      assert.equal(store.transcriptIndex.waiting?.(), 0);
    });
  }
});

test('a hold past its bound of message text writes chunks as it goes', async () => {
  await withStore({ indexFlushIntervalMs: 60_000, indexHoldMaxChars: 1000 }, async (store, count) => {
    const release = store.transcriptIndex.hold?.();
    const put = (path: string, chars: number): void => store.transcriptIndex.put({
      path, harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null,
      messages: { sessionId: path, from: 0, items: [{ role: 'tool-result', text: 'x'.repeat(chars), at: null }, { role: 'user', text: 'y'.repeat(chars), at: null }] },
    });
    put('/a', 200);
    await ticks();
    assert.equal(count('transcript_index'), 0, '400 characters: held');
    put('/b', 400);
    await ticks();
    assert.equal(count('transcript_index'), 2, '1,200 characters, two rows of four: written');
    release?.();
  });
});

test('puts and removes commit in their order, across chunks: a path put, removed and put again ends as its last put', async () => {
  await withStore({ indexFlushIntervalMs: 60_000 }, async (store, count) => {
    const found = async (word: string): Promise<number> => {
      const q = parseSearchQuery(word, Date.now());
      assert.ok(q.ok);
      return (await store.search.query(q.query, 10)).length;
    };
    const release = store.transcriptIndex.hold?.();
    const say = (text: string) => ({ sessionId: 's', from: 0, items: [{ role: 'user' as const, text, at: null }] });
    // 8,000 usage records each: the drain (chunks of about 2,048 rows) writes each of the three in its own transaction.
    store.transcriptIndex.put({ path: '/x', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null, usage: usage('/x1', 8000), messages: say('kestrel') });
    store.transcriptIndex.remove('/x');
    store.transcriptIndex.put({ path: '/x', harness: 'claude', size: 2, mtimeMs: 2, offset: 2, summary: null, usage: usage('/x2', 8000), messages: say('osprey') });
    release?.();
    await soon(() => count('usage_records') === 16_000);
    assert.equal(count('transcript_index'), 1);
    assert.equal(count('usage_records'), 16_000);
    assert.equal(await found('kestrel'), 0, 'the removed put left the search index');
    assert.equal(await found('osprey'), 1);
    assert.deepEqual(store.transcriptIndex.get('/x')?.offset, 2);
  });
});

test('an eager search sink (the search thread) takes each op as it is put, except while a hold keeps the writes; the order is kept', async () => {
  const db = new Database(':memory:');
  migrate(db);
  const taken: string[][] = [];
  const sink: SearchSink = { eager: true, write: (ops) => void taken.push(ops.map((op) => `${op.kind} ${op.path}`)), waiting: () => 0, flush: () => {} };
  const index = createSqliteTranscriptIndex(db, { usage: createSqliteUsageRepository(db, Date.now), search: sink, toolOutput: () => false, intervalMs: 60_000, busy: () => false });
  const count = (): number => (db.prepare('SELECT count(*) n FROM transcript_index').get() as { n: number }).n;
  const put = (path: string): void => index.put({ path, harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null, messages: { sessionId: 's', from: 0, items: [{ role: 'user', text: path, at: null }] } });
  put('/a');
  assert.deepEqual(taken, [['put /a']], 'taken at the put, before any commit');
  assert.equal(count(), 0);
  const release = index.hold();
  put('/b');
  index.remove('/a');
  assert.equal(taken.length, 1, 'a hold keeps them');
  release();
  put('/c'); // after ops that still wait: it waits behind them
  assert.equal(taken.length, 1);
  await soon(() => count() === 2 && index.waiting() === 0);
  assert.deepEqual(taken.flat(), ['put /a', 'put /b', 'forget /a', 'put /c'], 'in put order');
  put('/d');
  assert.deepEqual(taken.at(-1), ['put /d'], 'nothing waits: taken at once again');
  index.flush();
  db.close();
});
