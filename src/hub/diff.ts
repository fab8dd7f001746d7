/** Pure diffing of one source's session list against what the hub knew. */
import type { Session } from '../core/session.ts';
import { isDeepStrictEqual } from 'node:util';

export interface SessionDiff {
  upserted: Session[];
  removed: Session[];
  statusChanged: { session: Session; previous: Pick<Session, 'status' | 'waitingFor' | 'live'> }[];
}

export function sessionKey(s: Pick<Session, 'harness' | 'id'>): string {
  return `${s.harness}:${s.id}`;
}

/**
 * Every field counts, compared in place (util.isDeepStrictEqual: no strings built, and the same object
 * at once, as a source hands out an unchanged session again). No field of a Session moves on every
 * read: each is derived from what the source read (files, the process table), never stamped with the
 * time of the read, so two listings of unchanged files are equal and any difference is something the
 * board shows. A field that did move on every read would make every rescan re-send every session; it
 * belongs outside Session.
 */
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
    if (!isDeepStrictEqual(old, s)) diff.upserted.push(s);
    if (old.status !== s.status || old.waitingFor !== s.waitingFor || old.live !== s.live) {
      diff.statusChanged.push({ session: s, previous: { status: old.status, waitingFor: old.waitingFor, live: old.live } });
    }
  }
  for (const [key, old] of before) if (!seen.has(key)) diff.removed.push(old);
  return diff;
}

/**
 * True when `held` (a listing by key, in the order it was built or changed in) holds exactly the session
 * objects of `listing`, in its order: a listing that hands out every session held again.
 */
export function holdsExactly(held: ReadonlyMap<string, Session>, listing: readonly Session[]): boolean {
  if (held.size !== listing.length) return false;
  let i = 0;
  for (const s of held.values()) if (s !== listing[i++]) return false;
  return true;
}
