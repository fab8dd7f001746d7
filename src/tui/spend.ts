/**
 * Today's spend and the last seven days in the TUI's status line: the figures from GET /api/usage
 * (days cut in this terminal's time zone), and a one-line sparkline of them.
 */
import { createZone, localTimeZone } from '../usage/index.ts';
import type { UsageReport } from '../usage/index.ts';

export interface SpendLine {
  /** Priced USD spent today, and whether some of today's tokens had no price (the figure is then a floor). */
  todayUsd: number;
  todayUnknown: boolean;
  /** Priced USD per day, the oldest first, today last (7 values). */
  days: number[];
}

const DAY_MS = 86_400_000;
const BARS = '▁▂▃▄▅▆▇█';

/** The 7 local dates ending today, in `tz`. */
export function lastSevenDays(now: number, tz: string = localTimeZone()): string[] {
  const zone = createZone(tz);
  const today = new Date(now + zone.offsetAt(now)).toISOString().slice(0, 10);
  const noon = Date.parse(`${today}T12:00:00Z`);
  return Array.from({ length: 7 }, (_, i) => new Date(noon - (6 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** The GET /api/usage path (without /api) that the line is made from. */
export function spendPath(days: string[], tz: string = localTimeZone()): string {
  return `/usage?${new URLSearchParams({ by: 'day', since: days[0] ?? '', until: days.at(-1) ?? '', tz })}`;
}

export function spendLineOf(report: Pick<UsageReport, 'rows'>, days: string[]): SpendLine {
  const byDay = new Map(report.rows.map((r) => [r.key, r]));
  const today = byDay.get(days.at(-1) ?? '');
  return { todayUsd: today?.pricedUsd ?? 0, todayUnknown: today?.costUsd === null, days: days.map((d) => byDay.get(d)?.pricedUsd ?? 0) };
}

/** One character per value: blank for nothing spent, else ▁…█ scaled to the largest. */
export function sparkline(values: number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => (v <= 0 || max <= 0 ? ' ' : BARS[Math.min(BARS.length - 1, Math.max(0, Math.ceil((v / max) * BARS.length) - 1))])).join('');
}

/** `today $1.23 ▁▂▅▇▃ █` (a `+?` when part of today's tokens have no price). */
export function spendText(s: SpendLine): string {
  return `today $${s.todayUsd.toFixed(2)}${s.todayUnknown ? '+?' : ''} ${sparkline(s.days)}`;
}
