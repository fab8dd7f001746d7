/**
 * A Copilot session's status from what its files say. Liveness is decided elsewhere (processes and
 * locks only); this picks, for a live session: waiting while a permission prompt has no answer,
 * else working or idle from open-sessions-state.json (the events when it has no entry), and stuck
 * when a working session has been silent too long.
 */
import type { SessionStatus } from '../../../core/session.ts';
import { turnRunning, type EventsSummary } from './events.ts';
import type { OpenEntry } from './open-state.ts';

export interface StatusInput {
  live: boolean;
  summary: EventsSummary | null;
  open: OpenEntry | null;
  /**
   * Start of the newest process that has the session open (ms since epoch), when known: a permission
   * prompt or an open-state entry older than it belongs to a process that is gone (killed before it
   * could clean up; a resumed session writes nothing until its first prompt).
   */
  processStartMs: number | null;
  /** ms since epoch. */
  now: number;
  /** A working session with no new event for this long is `stuck`. */
  stuckAfterMs: number;
}

export interface DerivedStatus {
  status: SessionStatus;
  waitingFor: string | null;
  statusSince: string | null;
}

/** Process start times come from /proc in 10 ms ticks; file times from the CLI's clock. */
const CLOCK_SLACK_MS = 1000;

export function deriveStatus(i: StatusInput): DerivedStatus {
  const s = i.summary;
  if (!i.live) return { status: 'ended', waitingFor: null, statusSince: s?.lastActivityAt ?? null };
  const current = (at: string | null) => i.processStartMs === null || (Date.parse(at ?? '') || 0) >= i.processStartMs - CLOCK_SLACK_MS;
  const asking = s?.pending.filter((p) => current(p.at)).at(-1);
  if (asking) return { status: 'waiting', waitingFor: asking.why, statusSince: asking.at };
  const open = i.open && current(i.open.refreshedAt) ? i.open : null;
  const busy = open ? open.working : s !== null && current(s.last.at) && turnRunning(s);
  const since = open?.refreshedAt ?? s?.last.at ?? null;
  if (!busy) return { status: 'idle', waitingFor: null, statusSince: since };
  const lastSign = Math.max(Date.parse(s?.lastActivityAt ?? '') || 0, Date.parse(open?.refreshedAt ?? '') || 0);
  const quietMs = lastSign === 0 ? 0 : i.now - lastSign;
  if (quietMs > i.stuckAfterMs) {
    return { status: 'stuck', waitingFor: `no session activity for ${Math.floor(quietMs / 60_000)} min`, statusSince: new Date(lastSign).toISOString() };
  }
  return { status: 'working', waitingFor: null, statusSince: since };
}
