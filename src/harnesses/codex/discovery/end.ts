/**
 * Ending a live Codex thread with its clean signal:
 * - `codex exec` holder → SIGINT (graceful: turn_aborted, lock released). Never SIGTERM: that leaves a
 *   stale lock and an unterminated turn.
 * - daemon thread → `turn/interrupt` for a running turn, then SIGTERM to the claiming TUI, which only
 *   detaches it; the daemon unloads the thread 60 s later on its own.
 * Every pid is re-read and re-verified just before it is signalled, so a pid reused by another program
 * (or a process that let go of the lock) is never signalled.
 */
import type { EndOutcome } from '../../../discovery/contract.ts';
import type { ProcPort } from '../../../discovery/proc/types.ts';
import type { AppServerClient, DaemonThreadStatus } from './app-server-client.ts';
import { classifyCodexProcess } from './argv.ts';
import type { EndPlan } from './build-session.ts';
import type { RolloutSummary } from './rollout.ts';
import { lockPathFor } from './thread-locks.ts';

export interface EndRequest {
  id: string;
  home: string;
  proc: ProcPort;
  plan: EndPlan;
  summary: RolloutSummary | null;
  daemon: DaemonThreadStatus | null;
  controlSocket: string;
  timeoutMs: number;
  /**
   * How long an exec holder gets to let go of its lock after SIGINT before the SIGINT is sent once more
   * (default 3 s). Observed: a SIGINT that lands while `codex exec` is still starting its turn can be
   * lost, and the turn then runs to completion.
   */
  sigintGraceMs?: number;
  sleep?: (ms: number) => Promise<void>;
  withDaemon: <T>(socketPath: string, fn: (c: AppServerClient) => Promise<T>, timeoutMs: number) => Promise<T>;
}

/** True when `pid` still exists and is a Codex process of `kind` (argv or exe), read afresh. */
function verified(proc: ProcPort, pid: number, kind: 'exec' | 'tui' | 'daemon'): boolean {
  const p = proc.read(pid);
  if (!p) return false;
  return classifyCodexProcess(p.argv, p.exe).kind === kind;
}

export async function endThread(r: EndRequest): Promise<EndOutcome> {
  const { plan, proc } = r;
  if (plan.kind === 'none') return { outcome: 'unsupported', reason: plan.reason };
  if (plan.kind === 'sigint') {
    const holdsLock = proc.lockHolders(lockPathFor(r.home, r.id)).includes(plan.pid);
    if (!holdsLock || !verified(proc, plan.pid, 'exec')) return { outcome: 'not_running', reason: 'the codex exec process is gone' };
    if (!proc.signal(plan.pid, 'SIGINT')) return { outcome: 'not_running', reason: 'the codex exec process exited' };
    // Ended means the flock is gone (SIGKILL would leave a stale lock); a SIGINT not acted on is sent once more.
    const lock = lockPathFor(r.home, r.id);
    const held = (): boolean => proc.lockHolders(lock).includes(plan.pid) && verified(proc, plan.pid, 'exec');
    const grace = r.sigintGraceMs ?? 3000;
    const sleep = r.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
    for (let round = 0; round < 2; round++) {
      for (let waited = 0; waited < grace && held(); waited += 100) await sleep(100);
      if (!held()) break;
      if (round === 0) proc.signal(plan.pid, 'SIGINT');
    }
    return { outcome: 'ended', signal: 'SIGINT', pid: plan.pid };
  }
  // Daemon-held thread.
  if (!proc.lockHolders(lockPathFor(r.home, r.id)).includes(plan.daemonPid) || !verified(proc, plan.daemonPid, 'daemon')) {
    return { outcome: 'not_running', reason: 'the Codex daemon no longer holds this thread' };
  }
  const running = r.daemon ? r.daemon.type === 'active' : r.summary?.turn.state === 'running';
  const turnId = r.summary?.turn.id ?? null;
  let interrupted = false;
  if (running && turnId !== null) {
    try {
      await r.withDaemon(r.controlSocket, (c) => c.request('turn/interrupt', { threadId: r.id, turnId }), r.timeoutMs);
      interrupted = true;
    } catch (e) {
      if (plan.tuiPids.length === 0) return { outcome: 'not_running', reason: `the daemon refused turn/interrupt: ${(e as Error).message}` };
    }
  }
  // The shim forwards signals to the native binary: signal the first verified pid only.
  const tui = plan.tuiPids.find((pid) => verified(proc, pid, 'tui'));
  if (tui !== undefined && proc.signal(tui, 'SIGTERM')) return { outcome: 'ended', signal: 'SIGTERM', pid: tui };
  if (interrupted) return { outcome: 'ended', signal: 'turn/interrupt', pid: plan.daemonPid };
  return { outcome: 'not_running', reason: 'no turn is running and no TUI is attached' };
}
