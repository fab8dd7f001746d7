/** Human table of sessions for `muster ls` on a terminal. Untrusted text is stripped of control characters. */
import type { Session } from '../core/session.ts';

function clean(s: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex -- removing terminal control characters is the point
  return (s ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

function fit(s: string, w: number): string {
  return s.length > w ? `${s.slice(0, Math.max(0, w - 1))}…` : s.padEnd(w);
}

function ago(iso: string | null): string {
  if (!iso) return '-';
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.round(s / 60)}m`;
  if (s < 86400) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86400)}d`;
}

function tokens(s: Session): string {
  const n = s.tokens.input + s.tokens.output + s.tokens.cacheRead + s.tokens.cacheWrite;
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n);
}

export function renderSessionTable(sessions: Session[], columns: number): string {
  if (sessions.length === 0) return 'No sessions found.';
  // In a fleet every session names its host: a HOST column comes first.
  const hostW = sessions.some((s) => s.host) ? Math.min(16, Math.max(6, ...sessions.map((s) => (s.host ?? '').length + 2))) : 0;
  const hostCell = (s: Session): string => (hostW ? fit(`${clean(s.host)}${s.hostReachable === false ? '?' : ''}`, hostW) : '');
  const titleW = Math.max(12, Math.min(50, columns - 86 - hostW));
  const head = `${hostW ? fit('HOST', hostW) : ''}${fit('HARNESS', 9)}${fit('STATUS', 10)}${fit('ID', 10)}${fit('TITLE', titleW + 1)}${fit('REPO@BRANCH', 28)}${fit('TOKENS', 8)}${fit('COST', 8)}LAST`;
  const rows = sessions.map((s) => {
    const repo = `${clean((s.repoRoot ?? s.cwd ?? '-').split('/').pop())}${s.branch ? `@${clean(s.branch)}` : ''}`;
    const status = s.live && s.statusKnown === false ? 'unknown' : s.status === 'waiting' && s.waitingFor ? 'waiting*' : s.status;
    return `${hostCell(s)}${fit(s.harness, 9)}${fit(status, 10)}${fit(s.id.slice(0, 8), 10)}${fit(clean(s.title), titleW + 1)}${fit(repo, 28)}${fit(tokens(s), 8)}${fit(s.costUsd === null ? '-' : `$${s.costUsd.toFixed(2)}`, 8)}${ago(s.lastActivityAt)}`;
  });
  const waiting = sessions.filter((s) => s.status === 'waiting' && s.waitingFor).map((s) => `  * ${s.id.slice(0, 8)} waits for: ${clean(s.waitingFor)}`);
  return [head, ...rows, ...(waiting.length ? ['', ...waiting] : [])].join('\n');
}
