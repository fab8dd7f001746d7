/**
 * Status of one OpenCode session. Pure.
 *
 * - Live with a server that answered: exact. A pending permission → `waiting` (OpenCode keeps the session
 *   `busy` while it waits, so the permission list decides); `busy` → `working`; `retry` → `stuck` with the
 *   retry message; absent → `idle`.
 * - Live without a server answer: from the store — an open turn is `working`, else `idle`.
 * - Not live: a turn that never completed means its process died mid-reply: OpenCode will never finish it,
 *   so it is `stuck` with that cause until a live process owns the session again (the issue: "a session
 *   whose last assistant message never completed is `stuck` (cause: its process died) unless a live process
 *   owns it"). No grace period: a resume is what ends it (`-s <id>`, then the turn completes → `ended`).
 *   This covers SIGKILL and crashes, and SIGTERM to `opencode run`, which has no handler for it (observed on
 *   1.18.33: the process dies by the signal and the reply keeps no `time.completed`); the TUI handles
 *   SIGTERM/SIGHUP and completes the reply with MessageAbortedError, so it reads `ended`.
 */
import type { SessionStatus } from '../../../core/session.ts';
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
}

export const DIED_MID_TURN = 'process died mid-turn: the last reply never completed';

export function deriveOpenCodeStatus(i: StatusInput): DerivedStatus {
  const s = i.summary;
  const activity = lastActivityMs(s);
  const turnStart = s.lastUser?.createdMs ?? s.lastAssistant?.createdMs ?? activity;
  if (!i.live) {
    if (isTurnOpen(s)) return { status: 'stuck', waitingFor: DIED_MID_TURN, sinceMs: activity };
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
