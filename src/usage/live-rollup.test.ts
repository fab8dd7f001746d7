import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUsageService } from './service.ts';
import { record, storeWith } from './usage-fixtures.test-support.ts';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('the rollup kept in memory', () => {
  it('follows every write as a fresh read of the store would: new records, larger repeats, a copy taken over by its maker', async () => {
    const copy = record({ iso: '2026-12-01T10:00:00Z', key: 'm1', sessionId: 'fork', rank: 1, input: 100 });
    const store = await storeWith([copy, record({ iso: '2026-12-01T11:00:00Z', key: 'm2', sessionId: 'fork', input: 50 })]);
    const kept = createUsageService({ repo: store.usage, session: () => undefined });
    const q = { by: 'session' as const, tz: 'UTC' };
    assert.deepEqual((await kept.report(q)).rows.map((r) => [r.key, r.tokens.input]), [['fork', 150]]);
    store.transcriptIndex.put({ path: '/t/p.jsonl', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: {}, usage: [
      { ...copy, sessionId: 'parent', rank: 0, tokens: { ...copy.tokens, output: 7 } },
      record({ iso: '2026-12-02T09:00:00Z', key: 'm3', sessionId: 'parent', model: 'gpt-5', input: 10 }),
    ] });
    await tick();
    const fresh = createUsageService({ repo: store.usage, session: () => undefined });
    for (const query of [q, { by: 'day' as const, tz: 'UTC' }, { by: 'model' as const, tz: 'Asia/Kolkata' }]) {
      assert.deepEqual(await kept.report(query), await fresh.report(query), query.by);
    }
    assert.deepEqual((await kept.report(q)).rows.map((r) => [r.key, r.tokens.input, r.tokens.output, r.messages]), [['parent', 110, 7, 2], ['fork', 50, 0, 1]]);
    kept.close();
    fresh.close();
    store.close();
  });

  it('writes committed while the first read goes page by page count once, whether the read had passed them or not', async () => {
    const keys = Array.from({ length: 12 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    const store = await storeWith(keys.map((key, i) => record({ iso: `2026-12-01T${String(i).padStart(2, '0')}:00:00Z`, key, sessionId: `s${i % 3}`, input: 100 })));
    const kept = createUsageService({ repo: store.usage, session: () => undefined, pageSize: 3 });
    const q = { by: 'session' as const, tz: 'UTC' };
    const first = kept.report(q);
    // While the pages are read: one record already read grows, one not read yet grows, a new one arrives.
    store.transcriptIndex.put({ path: '/t/y.jsonl', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: {}, usage: [
      record({ iso: '2026-12-01T00:00:00Z', key: 'k00', sessionId: 's0', input: 150 }),
      record({ iso: '2026-12-01T11:00:00Z', key: 'k11', sessionId: 's2', input: 170 }),
      record({ iso: '2026-12-02T09:00:00Z', key: 'k99', sessionId: 's1', input: 5 }),
    ] });
    await first;
    await tick();
    const fresh = createUsageService({ repo: store.usage, session: () => undefined });
    assert.deepEqual(await kept.report(q), await fresh.report(q));
    assert.equal((await kept.report(q)).totals.tokens.input, 1200 + 50 + 70 + 5);
    kept.close();
    fresh.close();
    store.close();
  });

  it('answers an unchanged report again until the next write; reports by repo or session follow the sessions without one', async () => {
    const store = await storeWith([record({ iso: '2026-12-01T10:00:00Z', key: 'a1', sessionId: 's1', input: 100 })]);
    let repo = '/r/one';
    const kept = createUsageService({ repo: store.usage, session: () => ({ repo, branch: null, title: 't' }) });
    const day = { by: 'day' as const, tz: 'Europe/Paris' };
    const first = await kept.report(day);
    assert.equal(await kept.report(day), first, 'the same report, not built again');
    assert.equal(await kept.report({ ...day }), first, 'an equal query finds it too');
    assert.deepEqual((await kept.report({ by: 'repo', tz: 'UTC' })).rows.map((r) => r.key), ['/r/one']);
    repo = '/r/two';
    assert.deepEqual((await kept.report({ by: 'repo', tz: 'UTC' })).rows.map((r) => r.key), ['/r/two'], 'what the hub knows now');
    store.transcriptIndex.put({ path: '/t/n.jsonl', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: {}, usage: [
      record({ iso: '2026-12-01T23:30:00Z', key: 'a2', sessionId: 's2', input: 5 }),
    ] });
    await tick();
    const after = await kept.report(day);
    assert.notEqual(after, first);
    assert.deepEqual(after.rows.map((r) => [r.key, r.tokens.input, r.sessions]), [['2026-12-01', 100, 1], ['2026-12-02', 5, 1]]);
    kept.close();
    store.close();
  });
});

