/**
 * Which Copilot CLI processes have which sessions open. `copilot` on PATH is an npm loader (a node
 * script) that runs the real CLI, a native single executable named `copilot`, as its child; only that
 * child touches the session, and it is the one Muster verifies and signals.
 *
 * Evidence, strongest first (observed with 1.0.102):
 * - `session-state/<id>/inuse.<pid>.lock` with an flock on `inuse.<pid>.hold` held by that same pid,
 *   which is the native binary. The kernel drops the flock when the process dies, so a SIGKILL leaves
 *   the files but never a live claim, and a reused pid cannot hold it.
 * - A native process started with `--resume=<id>` / `--session-id <id>` holding no session lock at all:
 *   a resumed session writes its lock files only at its first prompt.
 */
import path from 'node:path';
import { isUuid } from '../../../core/ids.ts';
import type { ProcInfo, ProcPort, ProcessTable } from '../../../discovery/proc/types.ts';
import { holdPath, type SessionDir } from './session-dirs.ts';

export interface LiveOwner {
  /** Native copilot pids with the session open, ascending. */
  pids: number[];
  /** How the first pid was found. */
  by: 'lock' | 'argv';
}

export interface LiveScan {
  owners: Map<string, LiveOwner>;
  /** `inuse.<pid>.lock` files nobody holds (a killed process's leftovers). */
  stale: number;
  table: ProcessTable;
}

/** True for the native Copilot CLI (not its node loader, not anything else named like it). */
export function isCopilotNative(p: Pick<ProcInfo, 'argv' | 'exe'>): boolean {
  const exe = p.exe ? path.basename(p.exe) : null;
  if (exe !== null) return exe === 'copilot';
  return path.basename(p.argv[0] ?? '') === 'copilot';
}

/** The session id a native process was started for (`--resume=<id>`, `-r <id>`, `--session-id <id>`), when a UUID. */
export function argvSessionClaim(argv: readonly string[]): string | null {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') return null;
    let value: string | undefined;
    if (a === '--resume' || a === '-r' || a === '--session-id') value = argv[i + 1];
    else if (a.startsWith('--resume=')) value = a.slice('--resume='.length);
    else if (a.startsWith('--session-id=')) value = a.slice('--session-id='.length);
    if (value !== undefined) return isUuid(value) ? value.toLowerCase() : null;
  }
  return null;
}

export function scanLive(dirs: readonly SessionDir[], proc: ProcPort): LiveScan {
  const table = proc.snapshot();
  const owners = new Map<string, LiveOwner>();
  const holds = dirs.flatMap((d) => d.inusePids.map((pid) => ({ id: d.id, pid, path: holdPath(d.dir, pid) })));
  const holders = holds.length > 0 ? proc.lockHoldersMany(holds.map((h) => h.path)) : new Map<string, number[]>();
  let stale = 0;
  const locking = new Set<number>();
  for (const h of holds) {
    const p = table.byPid.get(h.pid);
    if (!(holders.get(h.path) ?? []).includes(h.pid) || !p || !isCopilotNative(p)) {
      stale++;
      continue;
    }
    locking.add(h.pid);
    const o = owners.get(h.id);
    if (o) o.pids.push(h.pid);
    else owners.set(h.id, { pids: [h.pid], by: 'lock' });
  }
  const known = new Set(dirs.map((d) => d.id));
  for (const p of table.byPid.values()) {
    if (locking.has(p.pid) || !isCopilotNative(p)) continue;
    const id = argvSessionClaim(p.argv);
    if (id === null || !known.has(id)) continue;
    const o = owners.get(id);
    if (o) o.pids.push(p.pid);
    else owners.set(id, { pids: [p.pid], by: 'argv' });
  }
  for (const o of owners.values()) o.pids.sort((a, b) => a - b);
  return { owners, stale, table };
}

/**
 * Re-reads `pid` right before it is signalled: still the same process (start time), still the native
 * CLI, and still holding the session (its flock, or its argv claim).
 */
export function stillOwns(proc: ProcPort, then: ProcInfo, id: string, dir: string): boolean {
  const now = proc.read(then.pid);
  if (!now || now.startTicks !== then.startTicks || !isCopilotNative(now)) return false;
  return proc.lockHolders(holdPath(dir, then.pid)).includes(then.pid) || argvSessionClaim(now.argv) === id;
}
