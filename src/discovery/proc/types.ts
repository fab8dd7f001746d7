/**
 * The process-table port (Linux /proc first; macOS degrades to `ps`). Sources and panes read
 * processes only through this, so tests can pass a fixture /proc root or a hand-made table.
 */
export interface ProcInfo {
  pid: number;
  ppid: number;
  /** argv as the process reports it (/proc/<pid>/cmdline split on NUL). May be rewritten by the process (pi). */
  argv: string[];
  /** Short name from /proc/<pid>/stat field 2 (comm), max 15 chars. */
  comm: string;
  /** Resolved /proc/<pid>/exe, null when unreadable. */
  exe: string | null;
  /** Resolved /proc/<pid>/cwd, null when unreadable. */
  cwd: string | null;
  /** tty_nr from stat field 7 (0 = none). */
  ttyNr: number;
  /** Foreground process group of the tty (stat field 8, tpgid); -1 when none. */
  tpgid: number;
  /** Process group id (stat field 5). */
  pgrp: number;
  /** Start time in clock ticks since boot (stat field 22). */
  startTicks: number;
  /** Absolute start time in ms since epoch (boot time + ticks / CLK_TCK). */
  startedAtMs: number;
}

export interface ProcessTable {
  /** Every readable process; unreadable ones (raced exits, permissions) are simply absent. */
  byPid: Map<number, ProcInfo>;
  /** Children by parent pid. */
  children: Map<number, number[]>;
  bootTimeMs: number;
  /** When the snapshot was taken (ms since epoch). */
  takenAtMs: number;
}

/** One line of /proc/locks. */
export interface FileLock {
  /** FLOCK, POSIX, OFDLCK, LEASE. */
  kind: string;
  /** ADVISORY or MANDATORY. */
  mode: string;
  /** READ or WRITE. */
  access: string;
  /** Holder pid (-1 for OFD locks with no owner). */
  pid: number;
  /** Device major:minor in hex as printed, and inode number. */
  dev: string;
  inode: number;
  /** True for a "->" blocked waiter line. */
  blocked: boolean;
}

export interface ProcPort {
  /** A fresh snapshot of the process table. Cheap: 300 processes well under 50 ms. */
  snapshot(): ProcessTable;
  /** A fresh read of one process, undefined when it does not exist or cannot be read. */
  read(pid: number): ProcInfo | undefined;
  /**
   * kill(pid, 0): only ESRCH proves a process is gone (EPERM means it exists); and not a zombie (one
   * that exited but is not reaped yet), which costs a read of /proc/<pid>/stat.
   */
  isAlive(pid: number): boolean;
  /** /proc/<pid>/stat field 22, null when the process is gone. */
  startTicks(pid: number): number | null;
  /** Parsed /proc/locks ([] where there is none, e.g. macOS). */
  locks(): FileLock[];
  /**
   * Is `path` locked by another process? true (held), false (free; a missing file means
   * never claimed), null (cannot tell on this host). Never blocks, never takes the lock.
   */
  probeLock(path: string): boolean | null;
  /** Pids holding a lock on `path` (via inode match, confirmed through /proc/<pid>/fd). */
  lockHolders(path: string): number[];
  /**
   * lockHolders for many files at once: one /proc/locks read and one fd-table read per candidate
   * holder, so a daemon holding hundreds of locks costs one pass, not one per lock.
   */
  lockHoldersMany(paths: string[]): Map<string, number[]>;
  /** Sends a signal; returns false when the process is gone (ESRCH). */
  signal(pid: number, signal: NodeJS.Signals): boolean;
  /**
   * The process's environment as it started (/proc/<pid>/environ); null when it cannot be read
   * (another user's process, a raced exit). Absent where there is no /proc (macOS `ps`).
   */
  environ?(pid: number): ReadonlyMap<string, string> | null;
}

/** Every descendant of `pid` in `table`, each visited once even if the table has a cycle. */
export type DescendantsFn = (table: ProcessTable, pid: number) => number[];
