/**
 * Spend figures from GET /api/usage for the board: the browser's own time zone and local dates, so
 * "today" and a bar's day are the operator's. Part of the main bundle (the header's today total uses it).
 */
import { api } from './api.ts';
import type { UsageFigures, UsageReport } from '../../src/usage/types.ts';

export type { UsageFigures, UsageReport, UsageRow, UsagePart, UsageSplit } from '../../src/usage/types.ts';

export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The local date of `ms` (YYYY-MM-DD) in the browser's zone. */
export function localDate(ms: number): string {
  const p = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(ms);
  const get = (t: string): string => p.find((x) => x.type === t)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

export function usage(params: Record<string, string | number | undefined>): Promise<UsageReport> {
  const q = new URLSearchParams({ tz: browserZone() });
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  return api<UsageReport>('GET', `/api/usage?${q}`);
}

/** `$1.23`; an unknown cost shows its priced part and `+?` (tokens on a model without a price are never $0). */
export function money(f: Pick<UsageFigures, 'costUsd' | 'pricedUsd'>): string {
  const n = f.costUsd ?? f.pricedUsd;
  const s = n >= 100 ? n.toFixed(0) : n.toFixed(2);
  return `$${s}${f.costUsd === null ? '+?' : ''}`;
}
