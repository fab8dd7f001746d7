/**
 * Status of one OpenCode session (harnesses/opencode.md §5, §6, §10). Pure.
 *
 * - Live with a server that answered: exact. A pending permission → `waiting` (OpenCode keeps the session
 *   `busy` while it waits, so the permission list decides); `busy` → `working`; `retry` → `stuck` with the
 *   retry message; absent → `idle`.
 * - Live without a server answer: from the store — an open turn is `working`, else `idle`.
 * - Not live: a turn that never completed means its process died mid-reply (SIGKILL, crash): OpenCode will
 *   never finish it, so it is `stuck` with that cause for `stuckGraceMs` after the last activity — long
 *   enough for the operator to see it — and `ended` after that, like any dormant session.
 */
import type { SessionStatus } from '../session.ts';
import type { PendingPermission, ServerSessionStatus } from './http.ts';
import { isTurnOpen, lastActivityMs, type OpenCodeSessionSummary } from './summary.ts';

export interface DerivedStatus {
  status: SessionStatus;
  waitingFor: string | null;
  /** ms since epoch the status began, when known. */
  sinceMs: number | null;
}

export interface StatusInput {
  summary: OpenCodeSessionSummary;
  live: boolean;
  /** The session's entry in its server's answer, when a claimer's server answered (undefined → idle there). */
  server?: { status: ServerSessionStatus | undefined; permissions: PendingPermission[] };
  nowMs: number;
  stuckGraceMs: number;
}

export const DIED_MID_TURN = 'process died mid-turn: the last reply never completed';

export function deriveOpenCodeStatus(i: StatusInput): DerivedStatus {
  const s = i.summary;
  const activity = lastActivityMs(s);
  const turnStart = s.lastUser?.createdMs ?? s.lastAssistant?.createdMs ?? activity;
  if (!i.live) {
    if (isTurnOpen(s) && activity !== null && i.nowMs - activity < i.stuckGraceMs) {
      return { status: 'stuck', waitingFor: DIED_MID_TURN, sinceMs: activity };
    }
    return { status: 'ended', waitingFor: null, sinceMs: activity };
  }
  if (i.server) {
    const perm = i.server.permissions[0];
    if (perm) return { status: 'waiting', waitingFor: perm.reason, sinceMs: perm.createdMs ?? activity };
    const st = i.server.status;
    if (st?.type === 'busy') return { status: 'working', waitingFor: null, sinceMs: turnStart };
    if (st?.type === 'retry') {
      const why = `model request retrying${st.attempt !== null ? ` (attempt ${st.attempt})` : ''}${st.message ? `: ${st.message}` : ''}`;
      return { status: 'stuck', waitingFor: why.slice(0, 200), sinceMs: activity };
    }
    return { status: 'idle', waitingFor: null, sinceMs: s.lastAssistant?.completedMs ?? activity };
  }
  if (isTurnOpen(s)) return { status: 'working', waitingFor: null, sinceMs: turnStart };
  return { status: 'idle', waitingFor: null, sinceMs: s.lastAssistant?.completedMs ?? activity };
}
