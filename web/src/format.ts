/** Compact, glanceable renderings of times, tokens and money. */
import type { Session } from './types.ts';

/** A duration in a few characters: "42s", "7m", "3h05", "2d". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;
  return `${Math.floor(s / 86400)}d`;
}

export function ago(iso: string | null, now: number): string {
  if (!iso) return '—';
  const ms = now - Date.parse(iso);
  return Number.isFinite(ms) ? duration(ms) : '—';
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

/** The status word shown for a session: `unknown` for a live one nothing reports on (Session.statusKnown false). */
export function statusWord(s: Pick<Session, 'status' | 'live' | 'statusKnown'>): string {
  return s.live && s.statusKnown === false ? 'unknown' : s.status;
}

/** Sort rank of a status: who needs the operator comes first. */
export const STATUS_RANK: Record<string, number> = { waiting: 0, stuck: 1, working: 2, idle: 3, ended: 4 };

/** A count in a few characters (1234 → 1.2k). */
export function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * The prompt cache of a dormant session: "warm for 3m" while `cacheExpiresAt` is ahead (a resume
 * then reads the cached prompt cheaply), "expired 12m ago" after; null when the harness gives none.
 */
export function cacheState(iso: string | null | undefined, now: number): { warm: boolean; span: string; text: string } | null {
  if (!iso) return null;
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return null;
  const span = duration(Math.abs(at - now));
  return at > now ? { warm: true, span, text: `warm for ${span}` } : { warm: false, span, text: `expired ${span} ago` };
}
