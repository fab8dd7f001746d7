/** Compact renderings of durations, token counts and harness names for narrow columns. */
import { adapterFor, isHarness } from '../harnesses/registry.ts';
import type { Session } from '../core/session.ts';

/** "42s", "7m", "3h05", "2d": a duration in a few characters. */
export function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;
  return `${Math.floor(s / 86400)}d`;
}

/** Time since `iso` as span() has it; "—" when unknown. */
export function since(iso: string | null | undefined, now: number): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? span(now - ms) : '—';
}

/** The prompt cache: "cache warm for 3m" while it is ahead, "cache expired 12m ago" after; '' when unknown. */
export function cacheText(iso: string | null | undefined, now: number): string {
  const at = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(at)) return '';
  return at > now ? `cache warm for ${span(at - now)}` : `cache expired ${span(now - at)} ago`;
}

export function totalTokens(s: Pick<Session, 'tokens'>): number {
  return s.tokens.input + s.tokens.output + s.tokens.cacheRead + s.tokens.cacheWrite;
}

export function compactNumber(n: number): string {
  if (n <= 0) return '—';
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** A harness's short mark (its adapter's), or its name for one this build does not know. */
export function harnessMark(name: string): string {
  return isHarness(name) ? adapterFor(name).display.mark : name;
}

/** Last path segment ("—" for null). */
export function basename(p: string | null): string {
  if (!p) return '—';
  const parts = p.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? p;
}

export function repoBranch(s: Pick<Session, 'repoRoot' | 'cwd' | 'branch'>): string {
  const repo = basename(s.repoRoot ?? s.cwd);
  return s.branch ? `${repo}@${s.branch}` : repo;
}

export const shortId = (id: string): string => (id.startsWith('ses_') ? id.slice(0, 12) : id.slice(0, 8));
