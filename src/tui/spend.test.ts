import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lastSevenDays, sparkline, spendLineOf, spendPath, spendText } from './spend.ts';
import { renderFrame } from './render.ts';
import { initialState } from './types.ts';

describe('TUI spend line', () => {
  it('the seven local days ending today, in the terminal\'s zone', () => {
    const now = Date.parse('2026-12-02T07:30:00Z'); // 23:30 on 1 Dec in Los Angeles
    assert.deepEqual(lastSevenDays(now, 'America/Los_Angeles'), ['2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01']);
    assert.equal(lastSevenDays(now, 'UTC').at(-1), '2026-12-02');
    assert.equal(spendPath(['2026-11-25', '2026-12-01'], 'UTC'), '/usage?by=day&since=2026-11-25&until=2026-12-01&tz=UTC');
  });

  it('a sparkline scaled to the largest day, blank where nothing was spent', () => {
    assert.equal(sparkline([0, 1, 2, 4, 8, 0, 8]), ' ▁▂▄█ █');
    assert.equal(sparkline([0, 0]), '  ');
  });

  it('today\'s total from the report, marked when part of it has no price; shown in the status line', () => {
    const days = ['2026-11-29', '2026-11-30', '2026-12-01'];
    const line = spendLineOf({ rows: [{ key: '2026-11-30', pricedUsd: 2, costUsd: 2 }, { key: '2026-12-01', pricedUsd: 1.5, costUsd: null }] as never }, days);
    assert.deepEqual(line, { todayUsd: 1.5, todayUnknown: true, days: [0, 2, 1.5] });
    assert.equal(spendText(line), 'today $1.50+?  █▆', 'nothing spent the first day: a blank');
    const frame = renderFrame({ ...initialState(), spend: line }, { columns: 120, rows: 10, now: 0, color: false });
    assert.match(frame.lines.at(-1) ?? '', /today \$1\.50\+\? {2}█▆$/);
  });
});
