/**
 * ProcPort over a Linux /proc tree. `root` is '/proc' in production; tests point it at a fixture
 * directory shaped like /proc (<pid>/stat, <pid>/cmdline, <pid>/cwd symlink, stat, locks).
 */
import { readdirSync, statSync } from 'node:fs';
import { signalPid } from './proc-signal.ts';
import { PF_KTHREAD, hasExited, parseStat } from './proc-stat.ts';
import { readLinkOrNull, readProcText, splitCmdline } from './proc-files.ts';
import { parseProcLocks } from './proc-locks.ts';
import { createLockProbe } from './proc-lock-probe.ts';
import type { ProcStat } from './proc-stat.ts';
import type { ProcInfo, ProcPort, ProcessTable } from './types.ts';

export interface LinuxProcOptions {
  /**
   * Default: '/proc'. With any other root (a fixture), isAlive means "<root>/<pid> exists" so the
   * fixture stays the single truth; signal() still goes to `kill`.
   */
  root?: string;
  /** USER_HZ, the unit of stat field 22. Default: 100 (every mainstream Linux build). */
  clockTicks?: number;
  /**
   * Sends a signal (throws ESRCH/EPERM like process.kill). Default: process.kill.
   * Also used with signal 0 for isAlive when root is '/proc'.
   */
  kill?: (pid: number, signal: NodeJS.Signals | 0) => void;
}

export function createLinuxProc(options: LinuxProcOptions = {}): ProcPort {
  const root = options.root ?? '/proc';
  const clockTicks = options.clockTicks ?? 100;
  const kill = options.kill ?? ((pid, signal) => void process.kill(pid, signal));
  const realProc = root === '/proc';
  let bootTimeMs: number | undefined;

  // btime never changes while the machine is up: read once, lazily.
  const bootTime = (): number => (bootTimeMs ??= readBootTimeMs(root));

  const readOne = (pid: number): ProcInfo | undefined => {
    const dir = `${root}/${pid}`;
    const statText = readProcText(`${dir}/stat`, true);
    const stat = statText === null ? null : parseStat(statText);
    // A zombie has exited (only its parent has not reaped it): it is not a process any source may claim.
    if (!stat || hasExited(stat.state)) return undefined;
    // Often half the table: skipping their three reads keeps snapshots cheap; no source wants them.
    if (stat.flags & PF_KTHREAD) return fromStat(stat, [], null, null);
    const cmdline = readProcText(`${dir}/cmdline`, true);
    if (cmdline === null) return undefined; // exited between the two reads
    const exe = readLinkOrNull(`${dir}/exe`);
    // A binary replaced in place (a CLI self-update) reads "<path> (deleted)"; the path is still what ran.
    const exePath = exe?.endsWith(' (deleted)') ? exe.slice(0, -' (deleted)'.length) : exe;
    return fromStat(stat, splitCmdline(cmdline), exePath, readLinkOrNull(`${dir}/cwd`));
  };

  const fromStat = (stat: ProcStat, argv: string[], exe: string | null, cwd: string | null): ProcInfo => ({
    pid: stat.pid,
    ppid: stat.ppid,
    argv,
    comm: stat.comm,
    exe,
    cwd,
    ttyNr: stat.ttyNr,
    tpgid: stat.tpgid,
    pgrp: stat.pgrp,
    startTicks: stat.startTicks,
    startedAtMs: bootTime() + (stat.startTicks * 1000) / clockTicks,
  });

  const probe = createLockProbe({ root });

  return {
    snapshot(): ProcessTable {
      const byPid = new Map<number, ProcInfo>();
      const children = new Map<number, number[]>();
      let names: string[] = [];
      try {
        names = readdirSync(root);
      } catch {}
      for (const name of names) {
        const c = name.charCodeAt(0);
        if (c < 48 || c > 57) continue; // only <pid> directories
        const info = readOne(Number(name));
        if (!info) continue;
        byPid.set(info.pid, info);
        const list = children.get(info.ppid);
        if (list) list.push(info.pid);
        else children.set(info.ppid, [info.pid]);
      }
      return { byPid, children, bootTimeMs: bootTime(), takenAtMs: Date.now() };
    },
    read: (pid) => (Number.isInteger(pid) && pid > 0 ? readOne(pid) : undefined),
    isAlive(pid) {
      if (!Number.isInteger(pid) || pid <= 0) return false;
      if (!realProc) return exists(`${root}/${pid}`);
      try {
        kill(pid, 0);
      } catch (e) {
        return (e as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: alive, just not ours
      }
      // kill(pid, 0) succeeds on a zombie: an agent that died but whose parent (a tmux pane, a shell)
      // has not reaped it yet. It has exited; it must not keep its session live.
      const state = parseStat(readProcText(`${root}/${pid}/stat`, true) ?? '')?.state;
      return state === undefined || !hasExited(state);
    },
    startTicks(pid) {
      const text = Number.isInteger(pid) && pid > 0 ? readProcText(`${root}/${pid}/stat`, true) : null;
      const stat = text === null ? null : parseStat(text);
      // A zombie has exited: no start time, so nothing treats it as the live owner of a session.
      if (!stat || hasExited(stat.state)) return null;
      return stat.startTicks;
    },
    locks() {
      const text = readProcText(`${root}/locks`);
      return text === null ? [] : parseProcLocks(text);
    },
    probeLock: (path) => probe.probe(path),
    lockHolders: (path) => probe.holders(path),
    lockHoldersMany: (paths) => probe.holdersMany(paths),
    signal: (pid, signal) => signalPid(kill, pid, signal),
    environ(pid) {
      const text = Number.isInteger(pid) && pid > 0 ? readProcText(`${root}/${pid}/environ`) : null;
      if (text === null) return null;
      const env = new Map<string, string>();
      for (const entry of splitCmdline(text)) {
        const eq = entry.indexOf('=');
        if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
      }
      return env;
    },
  };
}

/** /proc/stat `btime` (seconds since epoch) in ms; 0 when unreadable so start times stay relative. */
function readBootTimeMs(root: string): number {
  const m = /^btime\s+(\d+)/m.exec(readProcText(`${root}/stat`) ?? '');
  return m ? Number(m[1]) * 1000 : 0;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
