import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from './index.ts';
import { record, storeWith } from '../usage/usage-fixtures.test-support.ts';

describe('usage records in the store', () => {
  it('one message is one record: a repeat keeps the largest counts, a fork\'s copy never takes it from its maker', async () => {
    const own = record({ iso: '2026-12-01T10:00:00Z', key: 'msg_1:req_1', sessionId: 'parent', input: 100, output: 5 });
    const repeat = { ...own, tokens: { ...own.tokens, output: 10 } };
    const copy = { ...own, sessionId: 'fork', rank: 1 as const };
    // Whichever file is read first: the copy first, then the maker's two records, and the reverse.
    for (const order of [[copy, own, repeat], [own, repeat, copy]]) {
      const store = await storeWith(order);
      const rows = await store.usage.rollup({});
      store.close();
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.sessionId, 'parent');
      assert.equal(rows[0]?.count, 1);
      assert.deepEqual(rows[0]?.tokens, { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    }
  });

  it('rolls up by session, model and quarter hour within a range and a harness', async () => {
    const store = await storeWith([
      record({ iso: '2026-12-01T10:00:00Z' }), record({ iso: '2026-12-01T10:14:59Z' }), record({ iso: '2026-12-01T10:15:00Z' }),
      record({ iso: '2026-12-01T10:00:00Z', harness: 'codex', model: 'gpt-5' }),
    ]);
    const all = await store.usage.rollup({});
    assert.equal(all.length, 3);
    assert.equal(all.find((r) => r.harness === 'claude' && r.count === 2)?.quarter, Date.parse('2026-12-01T10:00:00Z') / 900_000);
    assert.equal((await store.usage.rollup({ harness: 'codex' })).length, 1);
    assert.equal((await store.usage.rollup({ fromMs: Date.parse('2026-12-01T10:15:00Z') })).length, 1);
    assert.equal((await store.usage.rollup({ toMs: Date.parse('2026-12-01T10:15:00Z') })).reduce((a, r) => a + r.count, 0), 3);
    store.close();
  });

  it('tells listeners after the write, and claims each budget alert once', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const seen: string[][] = [];
    store.usage.onRecorded((c) => seen.push(c.harnesses));
    store.transcriptIndex.put({ path: '/a', harness: 'codex', size: 1, mtimeMs: 1, offset: 1, summary: {}, usage: [record({ iso: '2026-12-01T10:00:00Z', harness: 'codex' })] });
    store.transcriptIndex.put({ path: '/b', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: {} });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, [['codex']]);
    assert.equal(store.transcriptIndex.get('/a')?.usage, undefined, 'records are not kept with the cached entry');
    assert.equal(await store.usage.claimAlert('daily', '2026-12-01'), true);
    assert.equal(await store.usage.claimAlert('daily', '2026-12-01'), false);
    assert.equal(await store.usage.claimAlert('monthly', '2026-12'), true);
    store.close();
  });
  it('a new key\'s delta (written in one statement) is the stored row\'s, as a read back gives it', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const changes: unknown[] = [];
    store.usage.onRecorded((c) => changes.push(...c.deltas));
    const fresh = { ...record({ iso: '2026-12-01T10:00:00.400Z', key: 'k1', input: 7, output: 3 }), costUsd: 0.25 };
    store.transcriptIndex.put({ path: '/a', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: {}, usage: [fresh, { ...fresh, key: 'k2', costUsd: null }] });
    await new Promise((r) => setImmediate(r));
    const rows = await store.usage.rollup({});
    assert.equal(changes.length, 2);
    assert.deepEqual(changes[0], {
      record: 'claude\u0000k1', sessionId: fresh.sessionId, harness: 'claude', model: fresh.model, at: Date.parse('2026-12-01T10:00:00.400Z'), count: 1,
      tokens: { input: 7, output: 3, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, recordedUsd: 0.25, recorded: 1,
    });
    assert.deepEqual((changes[1] as { recorded: number; recordedUsd: number }).recorded, 0);
    assert.equal(rows.reduce((n, r) => n + r.count, 0), 2);
    store.close();
  });
});
