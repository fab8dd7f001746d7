/**
 * Cost per day as stacked bars, in plain SVG: one column per day of the period (empty days too), each
 * cut into its parts (harness, model or repo). A part's height is its priced cost; a day with tokens
 * on a model without a price says so in its label. Each part is a button: a click picks that day and part.
 */
import type { UsagePart, UsageRow } from '../spend-api.ts';
import { money } from '../spend-api.ts';
import { colorOf } from './colors.ts';

export interface SpendChartProps {
  days: string[];
  rows: ReadonlyMap<string, UsageRow>;
  split: string;
  onPick(day: string, part: UsagePart): void;
}

const H = 220;
const PAD = 28;

export function SpendChart({ days, rows, split, onPick }: SpendChartProps) {
  const max = Math.max(0.01, ...days.map((d) => rows.get(d)?.pricedUsd ?? 0));
  const w = Math.max(12, Math.min(48, Math.floor(900 / Math.max(1, days.length))));
  const width = days.length * w + PAD;
  const scale = (usd: number): number => (usd / max) * (H - PAD);
  return (
    <svg className="spend-chart" width={width} height={H} viewBox={`0 0 ${width} ${H}`} role="img" aria-label={`cost per day by ${split}`} data-testid="spend-chart">
      <text x={0} y={12} className="axis">{money({ costUsd: max, pricedUsd: max })}</text>
      <line x1={PAD - 4} x2={width} y1={H - PAD + 0.5} y2={H - PAD + 0.5} className="base" />
      {days.map((day, i) => {
        const row = rows.get(day);
        let y = H - PAD;
        const x = PAD + i * w;
        return (
          <g key={day} data-testid="spend-day" data-day={day} data-usd={row?.pricedUsd ?? 0}>
            {(row?.parts ?? []).map((p) => {
              const h = Math.max(p.pricedUsd > 0 || p.unpricedTokens > 0 ? 2 : 0, scale(p.pricedUsd));
              y -= h;
              return (
                <rect key={p.key} x={x + 2} y={y} width={w - 4} height={h} fill={colorOf(split, p.key)} className="bar" data-testid="spend-bar" data-day={day} data-key={p.key} data-usd={p.pricedUsd}
                  tabIndex={0} role="button" onClick={() => onPick(day, p)} onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onPick(day, p)}>
                  <title>{`${day} · ${p.key}: ${money(p)} · ${p.sessions} session${p.sessions === 1 ? '' : 's'}${p.costUsd === null ? ` · ${p.unpricedTokens} tokens without a price` : ''}`}</title>
                </rect>
              );
            })}
            {(i % Math.ceil(days.length / 10) === 0 || i === days.length - 1) && <text x={x + w / 2} y={H - 10} textAnchor="middle" className="axis">{day.slice(5)}</text>}
          </g>
        );
      })}
    </svg>
  );
}
