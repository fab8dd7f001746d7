/** Compact, glanceable renderings of times, tokens and money. */
import type { Session } from './types.ts';

export function ago(iso: string | null, now: number): string {
  if (!iso) return '—';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(s)) return '—';
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;
  return `${Math.floor(s / 86400)}d`;
}

export function tokens(s: Session): string {
  const n = s.tokens.input + s.tokens.output + s.tokens.cacheRead + s.tokens.cacheWrite;
  if (n === 0) return '—';
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export const totalTokens = (s: Session): number => s.tokens.input + s.tokens.output + s.tokens.cacheRead + s.tokens.cacheWrite;

export function cost(usd: number | null): string {
  if (usd === null) return '—';
  return usd < 0.01 && usd > 0 ? '<$0.01' : `$${usd.toFixed(2)}`;
}

export function basename(p: string | null): string {
  if (!p) return '—';
  const parts = p.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? p;
}

export const HARNESS_MARK: Record<string, string> = { claude: 'CC', codex: 'CX', opencode: 'OC', pi: 'PI', omp: 'OMP' };

/** Sort rank of a status: who needs the operator comes first. */
export const STATUS_RANK: Record<string, number> = { waiting: 0, stuck: 1, working: 2, idle: 3, ended: 4 };

/** A count in a few characters (1234 → 1.2k). */
export function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
