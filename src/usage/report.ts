/**
 * The report: rollup rows (per session, model and UTC quarter hour) grouped by local day, ISO week,
 * month, session, model, harness or repo, each group optionally split into parts. Pure.
 */
import { PRICES_AS_OF, PRICES_SOURCE } from '../discovery/pricing/index.ts';
import type { Zone } from './zone.ts';
import { weekOf } from './zone.ts';
import { addRow, createAcc, figuresOf, rowCost } from './figures.ts';
import type { FiguresAcc } from './figures.ts';
import type { SessionFacts, UsageGroup, UsageQuery, UsageReport, UsageRollupRow, UsageRow, UsageSplit } from './types.ts';

export interface ReportInput {
  query: UsageQuery;
  zone: Zone;
  rows: readonly UsageRollupRow[];
  /** What the hub knows of a session; undefined for one it no longer lists. */
  session(id: string): SessionFacts | undefined;
}

/** A repo's key: its root's path, else `(no repo)`. */
const NO_REPO = '(no repo)';

function keyOf(by: UsageGroup | UsageSplit, r: UsageRollupRow, zone: Zone, facts: (id: string) => SessionFacts | undefined): string {
  switch (by) {
    case 'day':
      return zone.dayOfQuarter(r.quarter);
    case 'week':
      return weekOf(zone.dayOfQuarter(r.quarter));
    case 'month':
      return zone.dayOfQuarter(r.quarter).slice(0, 7);
    case 'session':
      return r.sessionId;
    case 'model':
      return r.model || '(unknown model)';
    case 'harness':
      return r.harness;
    case 'repo':
      return facts(r.sessionId)?.repo ?? NO_REPO;
  }
}

const byTime = (by: UsageGroup): boolean => by === 'day' || by === 'week' || by === 'month';

/** Biggest spend first: the cost, else (unknown cost) the priced part; ties by key. */
function bySpend(a: UsageRow | { key: string; pricedUsd: number; costUsd: number | null }, b: typeof a): number {
  return b.pricedUsd - a.pricedUsd || a.key.localeCompare(b.key);
}

interface Group { acc: FiguresAcc; harness: UsageRollupRow['harness']; parts: Map<string, FiguresAcc> | null }

export function buildReport(input: ReportInput): UsageReport {
  const { query, zone, rows } = input;
  const facts = input.session;
  const groups = new Map<string, Group>();
  const total = createAcc();
  // Grouped by time, every row of one quarter hour goes to one group: found by the quarter's number,
  // the day's key is made once per quarter rather than once per row.
  const quarters = byTime(query.by) ? new Map<number, Group>() : null;
  for (const r of rows) {
    const cost = rowCost(r);
    let g = quarters?.get(r.quarter);
    if (!g) {
      const key = keyOf(query.by, r, zone, facts);
      g = groups.get(key);
      if (!g) groups.set(key, (g = { acc: createAcc(), harness: r.harness, parts: query.split ? new Map() : null }));
      quarters?.set(r.quarter, g);
    }
    addRow(g.acc, r, cost);
    addRow(total, r, cost);
    if (g.parts && query.split) {
      const pk = keyOf(query.split, r, zone, facts);
      let p = g.parts.get(pk);
      if (!p) g.parts.set(pk, (p = createAcc()));
      addRow(p, r, cost);
    }
  }
  let out: UsageRow[] = [...groups].map(([key, g]) => {
    const row: UsageRow = { key, ...figuresOf(g.acc) };
    if (query.by === 'session') {
      row.harness = g.harness;
      row.label = facts(key)?.title ?? '';
    }
    if (g.parts) row.parts = [...g.parts].map(([k, p]) => ({ key: k, ...figuresOf(p) })).sort(bySpend);
    return row;
  });
  out.sort(byTime(query.by) ? (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : bySpend);
  if (query.limit !== undefined) out = byTime(query.by) ? out.slice(-query.limit) : out.slice(0, query.limit);
  return {
    by: query.by,
    tz: zone.tz,
    since: query.since ?? null,
    until: query.until ?? null,
    rows: out,
    totals: figuresOf(total),
    prices: { asOf: PRICES_AS_OF, source: PRICES_SOURCE },
  };
}
