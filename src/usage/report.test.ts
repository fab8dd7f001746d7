import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUsageService } from './service.ts';
import type { SessionFacts, UsageQuery } from './types.ts';
import { record, storeWith } from './usage-fixtures.test-support.ts';
import type { UsageRecord } from '../core/usage-record.ts';

const facts: Record<string, SessionFacts> = {
  s1: { repo: '/src/app', branch: 'main', title: 'fix the login' },
  s2: { repo: '/src/api', branch: 'dev', title: 'add an endpoint' },
};

async function report(records: UsageRecord[], q: Partial<UsageQuery> = {}) {
  const store = await storeWith(records);
  try {
    const usage = createUsageService({ repo: store.usage, session: (id) => facts[id] });
    return await usage.report({ by: 'day', tz: 'UTC', ...q });
  } finally {
    store.close();
  }
}

describe('usage report', () => {
  it('groups by local day: a turn at 23:30 local lands on its local day, whatever the UTC date', async () => {
    // 23:30 in Los Angeles on 1 Dec is 07:30 UTC on 2 Dec.
    const r = await report([record({ iso: '2026-12-02T07:30:00Z' }), record({ iso: '2026-12-02T08:30:00Z' })], { tz: 'America/Los_Angeles' });
    assert.deepEqual(r.rows.map((x) => [x.key, x.messages]), [['2026-12-01', 1], ['2026-12-02', 1]]);
    const utc = await report([record({ iso: '2026-12-02T07:30:00Z' })], { tz: 'UTC' });
    assert.deepEqual(utc.rows.map((x) => x.key), ['2026-12-02']);
  });

  it('cuts days at quarter hours: Kolkata (+5:30) and Kathmandu (+5:45)', async () => {
    // 18:29 UTC is 23:59 in Kolkata, 18:30 is 00:00 the next day; Kathmandu turns at 18:15.
    const recs = [record({ iso: '2026-12-01T18:29:00Z' }), record({ iso: '2026-12-01T18:30:00Z' })];
    assert.deepEqual((await report(recs, { tz: 'Asia/Kolkata' })).rows.map((x) => x.key), ['2026-12-01', '2026-12-02']);
    assert.deepEqual((await report([record({ iso: '2026-12-01T18:14:00Z' }), record({ iso: '2026-12-01T18:16:00Z' })], { tz: 'Asia/Kathmandu' })).rows.map((x) => x.key), ['2026-12-01', '2026-12-02']);
  });

  it('follows a DST switch: 23:30 in Paris is 22:30 UTC in winter and 21:30 UTC in summer', async () => {
    const recs = [record({ iso: '2026-03-28T22:30:00Z' }), record({ iso: '2026-03-29T21:30:00Z' }), record({ iso: '2026-03-29T22:30:00Z' })];
    assert.deepEqual((await report(recs, { tz: 'Europe/Paris' })).rows.map((x) => [x.key, x.messages]), [['2026-03-28', 1], ['2026-03-29', 1], ['2026-03-30', 1]]);
  });

  it('since and until are local dates, both inclusive', async () => {
    const recs = [record({ iso: '2026-12-01T07:59:00Z' }), record({ iso: '2026-12-01T08:00:00Z' }), record({ iso: '2026-12-02T07:59:00Z' }), record({ iso: '2026-12-02T08:00:00Z' })];
    // In Los Angeles (UTC-8) 1 Dec runs from 08:00 UTC on 1 Dec to 08:00 UTC on 2 Dec.
    const r = await report(recs, { tz: 'America/Los_Angeles', since: '2026-12-01', until: '2026-12-01' });
    assert.deepEqual(r.rows.map((x) => [x.key, x.messages]), [['2026-12-01', 2]]);
    assert.equal(r.totals.messages, 2);
  });

  it('groups by ISO week (keyed by its Monday) and by month', async () => {
    const recs = [record({ iso: '2026-11-29T12:00:00Z' }), record({ iso: '2026-11-30T12:00:00Z' }), record({ iso: '2026-12-06T12:00:00Z' })];
    assert.deepEqual((await report(recs, { by: 'week' })).rows.map((x) => [x.key, x.messages]), [['2026-11-23', 1], ['2026-11-30', 2]]);
    assert.deepEqual((await report(recs, { by: 'month' })).rows.map((x) => [x.key, x.messages]), [['2026-11', 2], ['2026-12', 1]]);
  });

  it('groups by session, model, harness and repo, biggest spend first, with sessions counted once', async () => {
    const recs = [
      record({ iso: '2026-12-01T10:00:00Z', sessionId: 's1', input: 1_000_000 }), // $3
      record({ iso: '2026-12-01T11:00:00Z', sessionId: 's1', model: 'claude-haiku-4-5', input: 1_000_000 }), // $1
      record({ iso: '2026-12-01T10:00:00Z', sessionId: 's2', harness: 'codex', model: 'gpt-5', input: 0, output: 1_000_000 }), // $10
    ];
    const bySession = await report(recs, { by: 'session' });
    assert.deepEqual(bySession.rows.map((x) => [x.key, x.costUsd, x.harness, x.label]), [['s2', 10, 'codex', 'add an endpoint'], ['s1', 4, 'claude', 'fix the login']]);
    assert.deepEqual((await report(recs, { by: 'model' })).rows.map((x) => [x.key, x.costUsd]), [['gpt-5', 10], ['claude-sonnet-4-5-20250929', 3], ['claude-haiku-4-5', 1]]);
    assert.deepEqual((await report(recs, { by: 'harness' })).rows.map((x) => [x.key, x.costUsd, x.sessions]), [['codex', 10, 1], ['claude', 4, 1]]);
    assert.deepEqual((await report(recs, { by: 'repo' })).rows.map((x) => x.key), ['/src/api', '/src/app']);
    const day = await report(recs);
    assert.equal(day.rows[0]?.sessions, 2);
    assert.equal(day.totals.costUsd, 14);
    assert.deepEqual(day.totals.tokens, { input: 2_000_000, output: 1_000_000, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
  });

  it('an unknown model: tokens counted, cost unknown (never $0), the priced part beside it', async () => {
    const recs = [record({ iso: '2026-12-01T10:00:00Z' }), record({ iso: '2026-12-01T10:05:00Z', model: 'fake-model', input: 500 })];
    const r = await report(recs);
    const row = r.rows[0];
    assert.equal(row?.costUsd, null);
    assert.equal(row?.pricedUsd, 3);
    assert.equal(row?.unpricedTokens, 500);
    assert.deepEqual(row?.unpricedModels, ['fake-model']);
    assert.equal(r.totals.costUsd, null);
    assert.equal(r.totals.tokens.input, 1_000_500);
  });

  it('uses the cost a harness recorded, else the price table', async () => {
    const r = await report([record({ iso: '2026-12-01T10:00:00Z', harness: 'pi', model: 'fake-model', costUsd: 0.25 })]);
    assert.equal(r.totals.costUsd, 0.25);
  });

  it('splits each row into parts (the board\'s stacked bars) and filters by harness', async () => {
    const recs = [
      record({ iso: '2026-12-01T10:00:00Z', sessionId: 's1' }),
      record({ iso: '2026-12-01T10:00:00Z', sessionId: 's2', harness: 'codex', model: 'gpt-5', input: 0, output: 1_000_000 }),
    ];
    const r = await report(recs, { split: 'harness' });
    assert.deepEqual(r.rows[0]?.parts?.map((p) => [p.key, p.costUsd]), [['codex', 10], ['claude', 3]]);
    const codex = await report(recs, { harness: 'codex' });
    assert.equal(codex.totals.costUsd, 10);
    assert.equal(codex.totals.sessions, 1);
  });
});
