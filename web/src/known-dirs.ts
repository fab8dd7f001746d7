/** Directories Muster already knows, for the New session form: each session's repository and cwd, most recently active first. */
import type { Session } from './types.ts';

export function knownDirectories(sessions: Iterable<Session>, limit = 50): string[] {
  const latest = new Map<string, string>();
  for (const s of sessions) {
    const at = s.lastActivityAt ?? s.startedAt ?? '';
    for (const dir of [s.repoRoot, s.cwd]) {
      if (!dir || !dir.startsWith('/')) continue;
      if ((latest.get(dir) ?? '') < at || !latest.has(dir)) latest.set(dir, at);
    }
  }
  return [...latest.entries()].sort((a, b) => b[1].localeCompare(a[1]) || a[0].localeCompare(b[0])).slice(0, limit).map(([d]) => d);
}
