/**
 * The Spend view (a chunk of its own, loaded when opened): cost per day as stacked bars by harness,
 * model or repo over the last 14, 30 or 90 days, the period's top sessions, and its totals. It
 * refetches whenever the daemon stores new usage records (`tick`), so a turn that ends moves today's
 * bar without a reload. A click on a bar's part asks the list for the sessions that spent in it.
 */
import { useEffect, useMemo, useState } from 'react';
import { localDate, money, usage, type UsagePart, type UsageReport, type UsageSplit } from '../spend-api.ts';
import { harnessMark } from '../harnesses.ts';
import type { Session } from '../types.ts';
import { SpendChart } from './spend-chart.tsx';
import { colorOf } from './colors.ts';

export interface SpendViewProps {
  tick: number;
  sessions: ReadonlyMap<string, Session>;
  /** A bar's part was picked: the sessions that spent in it, with a label for the list's filter. */
  onPick(pick: { label: string; ids: Set<string> }): void;
  onOpen(s: Session): void;
}

const DAY_MS = 86_400_000;
const compact = (n: number): string => (n >= 1e9 ? `${(n / 1e9).toFixed(1)}B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n));

export default function SpendView({ tick, sessions, onPick, onOpen }: SpendViewProps) {
  const [period, setPeriod] = useState(14);
  const [split, setSplit] = useState<UsageSplit>('harness');
  const [days, setDays] = useState<UsageReport | null>(null);
  const [top, setTop] = useState<UsageReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const range = useMemo(() => {
    const now = Date.now();
    // Local dates from noon steps: a DST day is 23 or 25 hours, never skipped nor repeated.
    const noon = Date.parse(`${localDate(now)}T12:00:00Z`);
    return Array.from({ length: period }, (_, i) => new Date(noon - (period - 1 - i) * DAY_MS).toISOString().slice(0, 10));
    // tick: a new day may have begun since the last refetch.
  }, [period, tick]);
  const since = range[0] ?? '';
  const until = range.at(-1) ?? '';

  useEffect(() => {
    let live = true;
    Promise.all([usage({ by: 'day', since, until, split }), usage({ by: 'session', since, until, limit: 10 })]).then(
      ([d, t]) => {
        if (!live) return;
        setDays(d);
        setTop(t);
        setError(null);
      },
      (e: Error) => live && setError(e.message),
    );
    return () => void (live = false);
  }, [since, until, split, tick]);

  const byDay = useMemo(() => new Map((days?.rows ?? []).map((r) => [r.key, r])), [days]);
  const legend = useMemo(() => {
    const keys = new Map<string, number>();
    for (const r of days?.rows ?? []) for (const p of r.parts ?? []) keys.set(p.key, (keys.get(p.key) ?? 0) + p.pricedUsd);
    return [...keys].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  }, [days]);

  const pick = async (day: string, part: UsagePart): Promise<void> => {
    try {
      const r = await usage({ by: 'session', since: day, until: day, split });
      const ids = new Set(r.rows.filter((row) => row.parts?.some((p) => p.key === part.key)).map((row) => row.key));
      onPick({ label: `spent on ${day} · ${split === 'repo' ? part.key.split('/').pop() : part.key}`, ids });
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section className="spend-view" data-testid="spend-view">
      <div className="spend-controls">
        <label>last <select value={period} onChange={(e) => setPeriod(Number(e.target.value))} aria-label="period" data-testid="spend-period">
          {[7, 14, 30, 90].map((n) => <option key={n} value={n}>{n} days</option>)}
        </select></label>
        <label>by <select value={split} onChange={(e) => setSplit(e.target.value as UsageSplit)} aria-label="split" data-testid="spend-split">
          <option value="harness">harness</option>
          <option value="model">model</option>
          <option value="repo">repo</option>
        </select></label>
        {days && (
          <span className="spend-total" data-testid="spend-total">
            <b>{money(days.totals)}</b> · {compact(days.totals.tokens.input + days.totals.tokens.output + days.totals.tokens.cacheRead + days.totals.tokens.cacheWrite)} tokens · {days.totals.sessions} sessions
          </span>
        )}
        {days && days.totals.costUsd === null && <span className="muted">+? {compact(days.totals.unpricedTokens)} tokens on {days.totals.unpricedModels.join(', ')} (no price)</span>}
        <span className="muted spend-prices">{days ? `list prices as of ${days.prices.asOf} · days in ${days.tz}` : ''}</span>
      </div>
      {error && <p className="error">{error}</p>}
      <div className="spend-chart-wrap">
        <SpendChart days={range} rows={byDay} split={split} onPick={(d, p) => void pick(d, p)} />
        <ul className="spend-legend">
          {legend.map((k) => <li key={k}><i style={{ background: colorOf(split, k) }} />{split === 'harness' ? harnessMark(k).text : split === 'repo' ? k.split('/').pop() || k : k}</li>)}
        </ul>
      </div>
      <h2>Top sessions, last {period} days</h2>
      <table className="sessions spend-top" data-testid="spend-top">
        <thead><tr><th>Session</th><th>Harness</th><th className="num">Tokens</th><th className="num">Cost</th></tr></thead>
        <tbody>
          {(top?.rows ?? []).map((r) => {
            const s = sessions.get(r.key);
            return (
              <tr key={r.key} className="row" onClick={() => s && onOpen(s)} data-testid="spend-top-row" data-id={r.key}>
                <td>{r.label || s?.title || r.key.slice(0, 8)}</td>
                <td>{r.harness}</td>
                <td className="num">{compact(r.tokens.input + r.tokens.output + r.tokens.cacheRead + r.tokens.cacheWrite)}</td>
                <td className="num">{money(r)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
