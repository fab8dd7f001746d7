/** Pure diffing of one source's session list against what the hub knew. */
import type { Session } from '../core/session.ts';

export interface SessionDiff {
  upserted: Session[];
  removed: Session[];
  statusChanged: { session: Session; previous: Pick<Session, 'status' | 'waitingFor' | 'live'> }[];
}

export function sessionKey(s: Pick<Session, 'harness' | 'id'>): string {
  return `${s.harness}:${s.id}`;
}

/** Fields whose change alone should not re-send a session (they move on every read). */
function comparable(s: Session): string {
  return JSON.stringify(s);
}

export function diffSessions(before: Map<string, Session>, after: Session[]): SessionDiff {
  const diff: SessionDiff = { upserted: [], removed: [], statusChanged: [] };
  const seen = new Set<string>();
  for (const s of after) {
    const key = sessionKey(s);
    seen.add(key);
    const old = before.get(key);
    if (!old) {
      diff.upserted.push(s);
      continue;
    }
    if (comparable(old) !== comparable(s)) diff.upserted.push(s);
    if (old.status !== s.status || old.waitingFor !== s.waitingFor || old.live !== s.live) {
      diff.statusChanged.push({ session: s, previous: { status: old.status, waitingFor: old.waitingFor, live: old.live } });
    }
  }
  for (const [key, old] of before) if (!seen.has(key)) diff.removed.push(old);
  return diff;
}
