/**
 * Can a goal set on this session be driven? A live session is driven through its harness's turn-end
 * report (a hook, the pi/omp extension, the OpenCode plugin): that report must be there — injected by
 * `muster <harness>` for a session it launched, or installed for every session by `muster hooks
 * install`. Otherwise the goal would sit there silently, so setting it is refused with what to run
 * (a dormant session is accepted: it is driven once resumed — the answer says how).
 */
import type { Harness, Session } from '../core/session.ts';
import { adapterFor } from '../harnesses/registry.ts';
import { readStatusAsset } from '../harnesses/status-assets/index.ts';
import { readConfigText } from '../hooks/install/target.ts';
import { musterHookArgv } from '../launch/hook-argv.ts';
import type { LaunchRecord } from '../launch/types.ts';

export type Drivability = { ok: true; note: string | null } | { ok: false; message: string; fix: string[] };

export interface DriveCheckOptions {
  env: NodeJS.ProcessEnv;
  session(id: string): Session | undefined;
  /**
   * Whether turns of a promptable session of this harness are judged from its transcript (server-turns.ts
   * needs the source's `tail`). A Codex daemon thread is promptable, yet reports its turns only through
   * its hooks. Default: every harness.
   */
  judgesServerTurns?(harness: Harness): boolean;
  /** Launches still running (the wrapper's records). */
  runningLaunches(): Promise<LaunchRecord[]>;
}

/** Whether `muster hooks install` is in place for the harness (its edits present and the harness takes them). */
function hooksInstalled(harness: Harness, env: NodeJS.ProcessEnv): boolean {
  const a = adapterFor(harness);
  let hookArgv: string[];
  try {
    hookArgv = musterHookArgv();
  } catch {
    hookArgv = ['muster', 'hook'];
  }
  try {
    const target = a.installTarget({ env, homes: a.homes(env), hookArgv, asset: (n) => readStatusAsset(n) });
    return target.edits.every((e) => e.has(readConfigText(e.path))) && target.accepted().accepted !== false;
  } catch {
    return false;
  }
}

/**
 * Would a goal on a session `muster new` starts be driven? Yes when the wrapper injects the harness's
 * turn-end report, or `muster hooks install` put it in place; else what to run first.
 */
export function launchDrivable(harness: Harness, env: NodeJS.ProcessEnv): { ok: true } | { ok: false; message: string; fix: string[] } {
  const a = adapterFor(harness);
  const turnEnd = a.hooks.turnEnd;
  if (!turnEnd) return { ok: false, message: `Muster cannot continue ${a.label} sessions from their turns; drive one headless instead`, fix: [`muster goal run ${harness} "<objective>"`] };
  if (turnEnd.viaWrapper || hooksInstalled(harness, env)) return { ok: true };
  const fix = `muster hooks install --harness ${harness}`;
  return { ok: false, message: `a new ${a.label} session reports its turns to Muster only with its hooks installed, so a goal on it would never advance: run \`${fix}\` first`, fix: [fix] };
}

export function createDriveCheck(o: DriveCheckOptions): (sessionId: string, harness: Harness) => Promise<Drivability> {
  return async (sessionId, harness) => {
    const a = adapterFor(harness);
    const turnEnd = a.hooks.turnEnd;
    if (!turnEnd) return { ok: false, message: `Muster cannot continue ${a.label} sessions from their turns; drive one headless instead`, fix: [`muster goal run ${harness} "<objective>"`] };
    const s = o.session(sessionId);
    if (s?.promptable === true && (o.judgesServerTurns?.(harness) ?? true)) return { ok: true, note: null };
    const installed = hooksInstalled(harness, o.env);
    const relaunch = a.resumeArgv(sessionId);
    const viaMuster = relaunch ? `muster ${relaunch.join(' ')}` : `muster ${harness}`;
    if (!s || !s.live) {
      if (installed || !turnEnd.viaWrapper) return { ok: true, note: null };
      return { ok: true, note: `the goal drives the session once it runs with Muster's ${turnEnd.event} report: resume it with \`${viaMuster}\`` };
    }
    if (installed) return { ok: true, note: null };
    if (turnEnd.viaWrapper && (await o.runningLaunches()).some((l) => l.sessionId === sessionId && l.harness === harness)) return { ok: true, note: null };
    const fix = [`muster hooks install --harness ${harness}`, ...(turnEnd.viaWrapper ? [viaMuster] : [])];
    return {
      ok: false,
      message: `this ${a.label} session does not report its turns to Muster, so a goal on it would never advance: run \`${fix[0]}\` and restart the session${turnEnd.viaWrapper ? `, or restart it with \`${viaMuster}\`` : ''}`,
      fix,
    };
  };
}
