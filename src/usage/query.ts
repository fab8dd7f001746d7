/**
 * The report's query from HTTP query parameters (`by`, `tz`, `since`, `until`, `harness`, `split`,
 * `limit`): each bad value is a 400 `invalid_argument` naming it.
 */
import { MusterError } from '../errors/index.ts';
import { HARNESSES, isHarness } from '../harnesses/registry.ts';
import { USAGE_GROUPS, USAGE_SPLITS } from './types.ts';
import type { UsageGroup, UsageQuery, UsageSplit } from './types.ts';
import { isTimeZone, parseDate } from './zone.ts';

const bad = (msg: string): MusterError => new MusterError('invalid_argument', msg);

function oneOf<T extends string>(v: string | undefined, allowed: readonly T[], name: string): T | undefined {
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw bad(`${name} must be one of ${allowed.join(', ')}`);
  return v as T;
}

function date(v: string | undefined, name: string): string | undefined {
  if (v === undefined) return undefined;
  const d = parseDate(v);
  if (d === undefined) throw bad(`${name} must be a date, YYYY-MM-DD or YYYYMMDD`);
  return d;
}

export function parseUsageQuery(q: Record<string, string | undefined>, defaultTz: string): UsageQuery {
  const by: UsageGroup = oneOf(q.by, USAGE_GROUPS, 'by') ?? 'day';
  const tz = q.tz ?? defaultTz;
  if (!isTimeZone(tz)) throw bad(`tz must be an IANA time zone such as Europe/Paris or UTC (got '${tz.slice(0, 64)}')`);
  const query: UsageQuery = { by, tz };
  const since = date(q.since, 'since');
  const until = date(q.until, 'until');
  if (since !== undefined && until !== undefined && since > until) throw bad('since must not be after until');
  if (since !== undefined) query.since = since;
  if (until !== undefined) query.until = until;
  if (q.harness !== undefined) {
    if (!isHarness(q.harness)) throw bad(`harness must be one of ${HARNESSES.join(', ')}`);
    query.harness = q.harness;
  }
  const split: UsageSplit | undefined = oneOf(q.split, USAGE_SPLITS, 'split');
  if (split !== undefined) query.split = split;
  if (q.limit !== undefined) {
    const n = /^\d{1,6}$/.test(q.limit) ? Number(q.limit) : NaN;
    if (!(n >= 1 && n <= 100_000)) throw bad('limit must be an integer from 1 to 100000');
    query.limit = n;
  }
  return query;
}
