/**
 * Status of a pi/omp session from its summary and, when present, an exact busy/idle signal
 * (the status extension's registry file). Liveness is decided elsewhere, from processes only.
 */
import type { SessionStatus } from '../../../core/session.ts';
import type { TranscriptSummary } from './transcript-summary.ts';

export interface StatusInput {
  /** Whether a verified process has the session open now. */
  live: boolean;
  /** Now, ms since epoch. */
  now: number;
  /** A working session with no new record for this long is `stuck`. */
  stuckAfterMs: number;
  /** Exact state reported by the status extension, when one is loaded. */
  exact?: { state: 'busy' | 'idle'; since: string | null } | null;
}

export interface DerivedStatus {
  status: SessionStatus;
  waitingFor: string | null;
  statusSince: string | null;
}

/** Tools whose pending call means the agent is waiting for the operator (omp's interactive `ask`). */
const ASKING_TOOLS = new Set(['ask']);

export function deriveStatus(s: TranscriptSummary, input: StatusInput): DerivedStatus {
  if (!input.live) return { status: 'ended', waitingFor: null, statusSince: s.lastExit?.at ?? s.lastActivityAt };
  const asking = s.pending.find((p) => ASKING_TOOLS.has(p.name));
  if (asking) return { status: 'waiting', waitingFor: asking.detail ? `question: ${asking.detail}` : 'the agent asked a question', statusSince: s.last.at };
  const busy = input.exact ? input.exact.state === 'busy' : transcriptBusy(s);
  if (!busy) return { status: 'idle', waitingFor: null, statusSince: input.exact?.since ?? s.last.at ?? s.lastActivityAt };
  const since = s.turnSince ?? input.exact?.since ?? s.last.at;
  // Activity is the newest of the file's last record and the extension's last state change.
  const lastSign = Math.max(Date.parse(s.lastActivityAt ?? '') || 0, Date.parse(input.exact?.since ?? '') || 0);
  const quietMs = lastSign === 0 ? 0 : input.now - lastSign;
  if (quietMs > input.stuckAfterMs) {
    const minutes = Math.floor(quietMs / 60_000);
    const tool = s.pending[0];
    const running = tool ? ` while running ${tool.name}${tool.detail ? ` (${tool.detail})` : ''}` : '';
    return { status: 'stuck', waitingFor: `no transcript activity for ${minutes} min${running}`, statusSince: new Date(lastSign).toISOString() };
  }
  return { status: 'working', waitingFor: null, statusSince: since };
}

/** The file alone says a turn is running: a prompt, a tool call or a tool result awaits its follow-up. */
export function transcriptBusy(s: TranscriptSummary): boolean {
  switch (s.last.kind) {
    case 'user':
    case 'toolResult':
    case 'toolStart':
      return true;
    case 'assistant':
      return s.last.stopReason === 'toolUse';
    default:
      return false;
  }
}
