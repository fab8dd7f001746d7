import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseUsageQuery } from './query.ts';
import { MusterError } from '../errors/index.ts';
import { parseDate, weekOf } from './zone.ts';

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return e instanceof MusterError ? `${e.code}:${e.status}` : 'other';
  }
  return 'none';
};

describe('usage query', () => {
  it('defaults to days in the given zone; takes ccusage-style YYYYMMDD dates', () => {
    assert.deepEqual(parseUsageQuery({}, 'Europe/Paris'), { by: 'day', tz: 'Europe/Paris' });
    assert.deepEqual(parseUsageQuery({ by: 'model', since: '20261201', until: '2026-12-31', harness: 'codex', tz: 'UTC', split: 'repo', limit: '5' }, 'Europe/Paris'),
      { by: 'model', tz: 'UTC', since: '2026-12-01', until: '2026-12-31', harness: 'codex', split: 'repo', limit: 5 });
  });

  it('refuses bad input with 400 invalid_argument', () => {
    for (const q of [{ by: 'year' }, { tz: 'Mars/Base' }, { since: '2026-02-30' }, { until: 'yesterday' }, { since: '2026-12-02', until: '2026-12-01' }, { harness: 'emacs' }, { split: 'day' }, { limit: '0' }, { limit: 'x' }]) {
      assert.equal(code(() => parseUsageQuery(q, 'UTC')), 'invalid_argument:400', JSON.stringify(q));
    }
  });

  it('dates and ISO weeks', () => {
    assert.equal(parseDate('2024-02-29'), '2024-02-29');
    assert.equal(parseDate('2025-02-29'), undefined);
    assert.equal(weekOf('2026-12-06'), '2026-11-30', 'a Sunday belongs to the week of the Monday before');
    assert.equal(weekOf('2026-11-30'), '2026-11-30');
  });
});
