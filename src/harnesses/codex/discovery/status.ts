/**
 * Status of a live Codex thread. The daemon's `thread/read` is exact
 * for daemon-held threads; otherwise the rollout tail decides. Approvals are not persisted in rollouts,
 * so `waiting` can only come from the daemon.
 */
import type { SessionStatus } from '../../../core/session.ts';
import type { DaemonThreadStatus } from './app-server-client.ts';
import type { RolloutSummary } from './rollout.ts';

export interface LiveStatus {
  status: SessionStatus;
  waitingFor: string | null;
  statusSince: string | null;
}

function pendingTool(s: RolloutSummary | null): { name: string; at: string | null } | null {
  if (!s) return null;
  const calls = Object.values(s.pending);
  return calls.length > 0 ? (calls[calls.length - 1] ?? null) : null;
}

export function liveStatus(summary: RolloutSummary | null, daemon: DaemonThreadStatus | null): LiveStatus {
  const turnSince = summary?.turn.since ?? null;
  const idleSince = turnSince ?? summary?.lastActivityAt ?? null;
  if (daemon) {
    if (daemon.type === 'active') {
      const tool = pendingTool(summary);
      if (daemon.activeFlags.includes('waitingOnApproval')) {
        return { status: 'waiting', waitingFor: tool ? `approval: ${tool.name}` : 'approval', statusSince: tool?.at ?? turnSince };
      }
      if (daemon.activeFlags.includes('waitingOnUserInput')) return { status: 'waiting', waitingFor: 'input', statusSince: turnSince };
      return { status: 'working', waitingFor: null, statusSince: turnSince };
    }
    if (daemon.type === 'idle') return { status: 'idle', waitingFor: null, statusSince: idleSince };
    if (daemon.type === 'systemError') return { status: 'stuck', waitingFor: 'Codex reported a system error on this thread', statusSince: idleSince };
    // notLoaded while a lock is held, or an unknown type: fall back to the rollout.
  }
  if (summary?.turn.state === 'running') return { status: 'working', waitingFor: null, statusSince: turnSince };
  return { status: 'idle', waitingFor: null, statusSince: idleSince };
}

/** True when the daemon (or, without it, the rollout) says a turn is running: keeps an unclaimed daemon thread live. */
export function turnRunning(summary: RolloutSummary | null, daemon: DaemonThreadStatus | null): boolean {
  if (daemon && (daemon.type === 'active' || daemon.type === 'idle')) return daemon.type === 'active';
  return summary?.turn.state === 'running';
}
