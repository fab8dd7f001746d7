import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costText, renderUsageTable } from './usage-table.ts';
import type { UsageFigures, UsageReport } from '../usage/types.ts';

const f = (input: number, costUsd: number | null, pricedUsd: number, unpricedModels: string[] = []): UsageFigures => ({
  tokens: { input, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, costUsd, pricedUsd, unpricedTokens: unpricedModels.length ? 500 : 0, unpricedModels, sessions: 1, messages: 1,
});

test('muster usage on a terminal: one line per row, a total, and an unknown cost shown as its priced part plus "+?", never $0', () => {
  const report: UsageReport = {
    by: 'day', tz: 'UTC', since: null, until: null, prices: { asOf: '2026-12-01', source: 's' },
    rows: [{ key: '2026-11-30', ...f(1500, 1.5, 1.5) }, { key: '2026-12-01', ...f(500, null, 0, ['fake-model']) }],
    totals: f(2000, null, 1.5, ['fake-model']),
  };
  const lines = renderUsageTable(report, 100).split('\n');
  assert.match(lines[1] ?? '', /^2026-11-30\s+1\.5k\s+10\s+0\s+0\s+\$1\.50\s+1$/);
  assert.match(lines[2] ?? '', /\$0\.00\+\?/);
  assert.match(lines.find((l) => l.startsWith('TOTAL')) ?? '', /\$1\.50\+\?/);
  assert.ok(lines.some((l) => l.includes('models without a price: fake-model')));
  assert.equal(costText({ costUsd: 0, pricedUsd: 0 }), '$0.00', 'a known model at zero tokens is $0');
  assert.equal(renderUsageTable({ ...report, rows: [] }, 80), 'No usage recorded.');
});
