/**
 * /proc/<pid>/stat parsing. comm (field 2) is chosen by the process and may hold spaces and
 * parentheses — even ") (" — so fields are counted from the LAST ')', never split naively.
 */

export interface ProcStat {
  pid: number;
  /** Field 2 without its parentheses. */
  comm: string;
  /** Field 3: R, S, D, Z, T... */
  state: string;
  /** Field 9: kernel PF_* flags. */
  flags: number;
  ppid: number;
  pgrp: number;
  session: number;
  ttyNr: number;
  tpgid: number;
  /** Field 22: start time in clock ticks since boot. */
  startTicks: number;
}

/**
 * True for a process that has exited but is not reaped yet (Z, zombie; X, dead). kill(pid, 0) still
 * finds it, so every liveness check (sessions, the daemon's lock) asks this too.
 */
export function hasExited(state: string): boolean {
  return state === 'Z' || state === 'X';
}

/** PF_KTHREAD: kernel threads have no argv, exe or cwd worth reading. */
export const PF_KTHREAD = 0x00200000;

/** Parses one stat line; null when it is not a stat line (truncated read, garbage). */
export function parseStat(text: string): ProcStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 1 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  // Fields 3.. are space-separated after ") "; rest[i] is field i + 3.
  const rest = text.slice(close + 2).split(' ');
  if (!Number.isInteger(pid) || rest.length < 20) return null;
  const num = (field: number): number => Number(rest[field - 3]);
  const stat: ProcStat = {
    pid,
    comm: text.slice(open + 1, close),
    state: rest[0] ?? '',
    flags: num(9),
    ppid: num(4),
    pgrp: num(5),
    session: num(6),
    ttyNr: num(7),
    tpgid: num(8),
    startTicks: num(22),
  };
  const ints = [stat.flags, stat.ppid, stat.pgrp, stat.session, stat.ttyNr, stat.tpgid, stat.startTicks];
  return ints.every(Number.isInteger) ? stat : null;
}
