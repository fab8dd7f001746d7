/**
 * Ending a live Codex thread with its clean signal:
 * - `codex exec` holder → SIGINT (graceful: turn_aborted, lock released), sent once the exec has taken
 *   its prompt (exec-ready.ts: one sent earlier is lost, and so is every SIGINT after it). Only when the
 *   lock is still held after the grace is the exec sent SIGTERM, which ends it at once but leaves a stale
 *   lock and an unterminated turn — an end that ends beats a turn that runs on.
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
  /** True once the exec's rollout records its prompt (exec-ready.ts); SIGINT waits for it, up to `readyWaitMs`. */
  promptRecorded: () => boolean;
  /** How long SIGINT waits for the prompt to be recorded (default 10 s; the exec has started by then). */
  readyWaitMs?: number;
  /** How long an exec holder gets to let go of its lock after SIGINT before it is sent SIGTERM (default 3 s). */
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
    const lock = lockPathFor(r.home, r.id);
    const held = (): boolean => proc.lockHolders(lock).includes(plan.pid) && verified(proc, plan.pid, 'exec');
    if (!held()) return { outcome: 'not_running', reason: 'the codex exec process is gone' };
    const sleep = r.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
    const waitWhile = async (cond: () => boolean, ms: number): Promise<void> => {
      for (let waited = 0; waited < ms && cond(); waited += 100) await sleep(100);
    };
    await waitWhile(() => !r.promptRecorded() && held(), r.readyWaitMs ?? 10_000);
    if (!held() || !proc.signal(plan.pid, 'SIGINT')) return { outcome: 'not_running', reason: 'the codex exec process exited' };
    // Ended means the flock is gone; an exec that did not act on its SIGINT never acts on another.
    const grace = r.sigintGraceMs ?? 3000;
    await waitWhile(held, grace);
    if (!held()) return { outcome: 'ended', signal: 'SIGINT', pid: plan.pid };
    proc.signal(plan.pid, 'SIGTERM');
    await waitWhile(held, grace);
    return { outcome: 'ended', signal: 'SIGTERM', pid: plan.pid };
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
