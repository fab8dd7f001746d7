import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createBudgetWatch } from './budget.ts';
import { createUsageService } from './service.ts';
import { record, storeWith } from './usage-fixtures.test-support.ts';

const NOW = Date.parse('2026-12-15T12:00:00Z');

describe('budget alerts', () => {
  it('crossing the daily budget notifies once, naming the total and the top spenders; the monthly one too', async () => {
    // Sonnet 4.5 at $3 per million input: s1 $3 today, s2 $1.50 today, s3 $6 earlier this month.
    const store = await storeWith([
      record({ iso: '2026-12-15T09:00:00Z', sessionId: 's1', input: 1_000_000 }),
      record({ iso: '2026-12-15T10:00:00Z', sessionId: 's2', input: 500_000 }),
      record({ iso: '2026-12-02T10:00:00Z', sessionId: 's3', input: 2_000_000 }),
    ]);
    const usage = createUsageService({ repo: store.usage, session: (id) => ({ repo: null, branch: null, title: `task ${id}` }) });
    const sent: string[] = [];
    let budgets = { dailyBudgetUsd: 5, monthlyBudgetUsd: 0 };
    const watch = createBudgetWatch({ usage, repo: store.usage, tz: () => 'UTC', clock: () => NOW, settings: async () => budgets, notify: async (m) => void sent.push(m) });
    assert.deepEqual(await watch.check(), [], '$4.50 today is under $5');
    budgets = { dailyBudgetUsd: 4, monthlyBudgetUsd: 11 };
    const first = await watch.check();
    assert.equal(first.length, 1);
    assert.match(first[0] ?? '', /^Daily budget \$4\.00 reached: \$4\.50 spent today\. Top: claude s1 "task s1" \$3\.00; claude s2 "task s2" \$1\.50$/);
    assert.deepEqual(await watch.check(), [], 'once per day');
    budgets = { dailyBudgetUsd: 4, monthlyBudgetUsd: 10 };
    const month = await watch.check();
    assert.match(month[0] ?? '', /^Monthly budget \$10\.00 reached: \$10\.50 spent this month\. Top: claude s3/);
    assert.deepEqual(sent, [...first, ...month]);
    watch.close();
    usage.close();
    store.close();
  });
});
