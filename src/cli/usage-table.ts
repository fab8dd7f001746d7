/** Human table of a usage report for `muster usage` on a terminal. Untrusted text is stripped of control characters. */
import type { UsageFigures, UsageReport } from '../usage/types.ts';

function clean(s: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex -- removing terminal control characters is the point
  return (s ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

const fit = (s: string, w: number): string => (s.length > w ? `${s.slice(0, Math.max(0, w - 1))}…` : s.padEnd(w));
const right = (s: string, w: number): string => s.padStart(w);

export function compactCount(n: number): string {
  return n >= 1e9 ? `${(n / 1e9).toFixed(1)}B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n);
}

/** `$1.23`; an unknown cost shows its priced part and a `+?` (never $0.00 for tokens without a price). */
export function costText(f: Pick<UsageFigures, 'costUsd' | 'pricedUsd'>): string {
  return f.costUsd === null ? `$${f.pricedUsd.toFixed(2)}+?` : `$${f.costUsd.toFixed(2)}`;
}

export function renderUsageTable(r: UsageReport, columns: number): string {
  if (r.rows.length === 0) return `No usage recorded${r.since || r.until ? ' in that period' : ''}.`;
  const keyW = Math.max(12, Math.min(r.by === 'session' ? 60 : 40, columns - 70));
  const line = (key: string, f: UsageFigures): string =>
    `${fit(key, keyW + 1)}${right(compactCount(f.tokens.input), 9)}${right(compactCount(f.tokens.output), 9)}${right(compactCount(f.tokens.cacheRead), 10)}${right(compactCount(f.tokens.cacheWrite), 10)}${right(costText(f), 12)}${right(String(f.sessions), 9)}`;
  const head = `${fit(r.by.toUpperCase(), keyW + 1)}${right('INPUT', 9)}${right('OUTPUT', 9)}${right('CACHE RD', 10)}${right('CACHE WR', 10)}${right('COST', 12)}${right('SESSIONS', 9)}`;
  const rows = r.rows.map((row) => line(clean(row.label ? `${row.harness ?? ''} ${row.key.slice(0, 8)} ${row.label}` : row.key), row));
  const out = [head, ...rows, '', line('TOTAL', r.totals)];
  const unpriced = r.totals.unpricedModels;
  if (unpriced.length > 0) out.push('', `+? ${compactCount(r.totals.unpricedTokens)} tokens on models without a price: ${unpriced.map(clean).join(', ')}`);
  out.push(`Days in ${r.tz}; prices as of ${r.prices.asOf}.`);
  return out.join('\n');
}
