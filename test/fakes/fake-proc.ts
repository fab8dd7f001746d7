/**
 * The one in-memory ProcPort double for source and pane unit tests (test doubles live in test/fakes/,
 * never copy-pasted). It behaves like the kernel where sources rely on it: a process that
 * exits drops its locks, a signal to a gone pid returns false, pid reuse shows as new start ticks.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { devToLocksText } from '../../src/discovery/proc/index.ts';
import type { FileLock, ProcInfo, ProcPort, ProcessTable } from '../../src/discovery/proc/types.ts';

export interface FakeProcOptions {
  /** Initial processes; missing fields get defaults (pid auto-assigned from 1000). */
  processes?: Partial<ProcInfo>[];
  /** Initial lock holders per path (each pid must also be a process to count as a holder). */
  locks?: { path: string; pids: number[] }[];
  /** Default: 1_700_000_000_000. */
  bootTimeMs?: number;
  /** Default: 100 (Linux CLK_TCK). */
  clockTicks?: number;
  /** false simulates a host without /proc/locks (macOS): probeLock answers null. Default: true. */
  lockSupport?: boolean;
  /** Signals that make a live process exit (and drop its locks). Default: SIGTERM, SIGINT, SIGHUP, SIGKILL. */
  exitOn?: NodeJS.Signals[];
}

export interface SentSignal {
  pid: number;
  signal: NodeJS.Signals;
  /** False when the pid was gone (the real port returns false for ESRCH). */
  delivered: boolean;
}

export interface FakeProc extends ProcPort {
  /** Every signal() call, in order, delivered or not. */
  readonly signals: SentSignal[];
  /** Adds (or replaces) a process; returns the full record. */
  add(process: Partial<ProcInfo>): ProcInfo;
  /** The process exits: gone from the table, its locks released. */
  remove(pid: number): void;
  /** Changes a pid's start time (simulates the pid being reused by a new process). */
  setStartTicks(pid: number, ticks: number): void;
  /** `pid` takes a lock on `path`. */
  holdLock(path: string, pid: number): void;
  /** Releases `pid`'s lock on `path`, or every holder's when pid is omitted. */
  releaseLock(path: string, pid?: number): void;
}

export function createFakeProc(options: FakeProcOptions = {}): FakeProc {
  const bootTimeMs = options.bootTimeMs ?? 1_700_000_000_000;
  const clockTicks = options.clockTicks ?? 100;
  const lockSupport = options.lockSupport ?? true;
  const exitOn = new Set<NodeJS.Signals>(options.exitOn ?? ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL']);
  const procs = new Map<number, ProcInfo>();
  const holders = new Map<string, Set<number>>();
  const inodes = new Map<string, number>();
  const signals: SentSignal[] = [];
  let nextPid = 1000;

  const startedAt = (ticks: number): number => bootTimeMs + (ticks * 1000) / clockTicks;
  /**
   * A lock path that exists on disk reports its real device and inode in locks(), as /proc/locks
   * would (sources pre-filter lock files by inode); other paths get stable made-up numbers.
   */
  const identityOf = (path: string): { dev: string; inode: number } => {
    try {
      const st = statSync(path, { bigint: true });
      return { dev: devToLocksText(st.dev), inode: Number(st.ino) };
    } catch {}
    let ino = inodes.get(path);
    if (ino === undefined) inodes.set(path, (ino = 10_000 + inodes.size));
    return { dev: '00:2a', inode: ino };
  };
  const liveHolders = (path: string): number[] =>
    [...(holders.get(path) ?? [])].filter((pid) => procs.has(pid)).sort((a, b) => a - b);

  const fake: FakeProc = {
    signals,
    add(p) {
      let pid = p.pid;
      if (pid === undefined) {
        while (procs.has(nextPid)) nextPid++;
        pid = nextPid++;
      }
      const argv = p.argv ?? [];
      const startTicks = p.startTicks ?? 1000;
      const info: ProcInfo = {
        pid,
        ppid: p.ppid ?? 1,
        argv: [...argv],
        comm: p.comm ?? (argv[0] ? basename(argv[0]).slice(0, 15) : 'fake'),
        exe: p.exe ?? null,
        cwd: p.cwd ?? null,
        ttyNr: p.ttyNr ?? 0,
        tpgid: p.tpgid ?? -1,
        pgrp: p.pgrp ?? pid,
        startTicks,
        startedAtMs: p.startedAtMs ?? startedAt(startTicks),
      };
      procs.set(pid, info);
      return { ...info, argv: [...info.argv] };
    },
    remove(pid) {
      procs.delete(pid);
      for (const set of holders.values()) set.delete(pid);
    },
    setStartTicks(pid, ticks) {
      const p = procs.get(pid);
      if (!p) throw new Error(`fake-proc: no process ${pid}`);
      procs.set(pid, { ...p, startTicks: ticks, startedAtMs: startedAt(ticks) });
    },
    holdLock(path, pid) {
      let set = holders.get(path);
      if (!set) holders.set(path, (set = new Set()));
      set.add(pid);
    },
    releaseLock(path, pid) {
      if (pid === undefined) holders.delete(path);
      else holders.get(path)?.delete(pid);
    },

    snapshot(): ProcessTable {
      const byPid = new Map<number, ProcInfo>();
      const children = new Map<number, number[]>();
      for (const p of [...procs.values()].sort((a, b) => a.pid - b.pid)) {
        byPid.set(p.pid, { ...p, argv: [...p.argv] });
        const list = children.get(p.ppid);
        if (list) list.push(p.pid);
        else children.set(p.ppid, [p.pid]);
      }
      return { byPid, children, bootTimeMs, takenAtMs: Date.now() };
    },
    read(pid) {
      const p = procs.get(pid);
      return p && { ...p, argv: [...p.argv] };
    },
    isAlive: (pid) => procs.has(pid),
    startTicks: (pid) => procs.get(pid)?.startTicks ?? null,
    locks(): FileLock[] {
      if (!lockSupport) return [];
      const out: FileLock[] = [];
      for (const path of [...holders.keys()].sort()) {
        const pids = liveHolders(path);
        if (pids.length === 0) continue;
        const { dev, inode } = identityOf(path);
        for (const pid of pids) out.push({ kind: 'FLOCK', mode: 'ADVISORY', access: 'WRITE', pid, dev, inode, blocked: false });
      }
      return out;
    },
    probeLock(path) {
      if (!lockSupport) return null;
      return liveHolders(path).length > 0;
    },
    lockHolders: (path) => (lockSupport ? liveHolders(path) : []),
    lockHoldersMany: (paths) => new Map(paths.map((p) => [p, lockSupport ? liveHolders(p) : []])),
    signal(pid, signal) {
      const delivered = procs.has(pid);
      signals.push({ pid, signal, delivered });
      if (delivered && exitOn.has(signal)) fake.remove(pid);
      return delivered;
    },
  };

  for (const p of options.processes ?? []) fake.add(p);
  for (const { path, pids } of options.locks ?? []) for (const pid of pids) fake.holdLock(path, pid);
  return fake;
}
