/**
 * Degraded ProcPort for hosts without /proc (macOS): the process table from `ps`, no cwd/exe,
 * no lock table (probeLock answers null, "cannot tell", which is not "free": callers fall back to
 * another signal).
 * `ps` is spawned once per snapshot, never per process.
 */
import { execFileSync } from 'node:child_process';
import { signalPid } from './proc-signal.ts';
import { parseLstart, psEnv } from './ps-env.ts';
import { basename } from 'node:path';
import type { ProcInfo, ProcPort, ProcessTable } from './types.ts';

export interface PsProcOptions {
  /** Runs a command and returns its stdout; throws when it fails. Default: execFileSync under psEnv (LC_ALL=C, TZ=UTC). */
  run?: (file: string, args: string[]) => string;
  /** Ticks per second used to express start times as startTicks. Default: 100. */
  clockTicks?: number;
  /** Boot time in ms. Default: `sysctl -n kern.boottime`, else 0. */
  bootTimeMs?: number;
  kill?: (pid: number, signal: NodeJS.Signals | 0) => void;
}

// comm= last: on macOS it is the executable path and may contain spaces; lstart= is 5 words.
const TABLE_FORMAT = 'pid=,ppid=,pgid=,tpgid=,lstart=,tty=,comm=';
const ARGS_FORMAT = 'pid=,args=';

export function createPsProc(options: PsProcOptions = {}): ProcPort {
  const run = options.run ?? defaultRun;
  const clockTicks = options.clockTicks ?? 100;
  const kill = options.kill ?? ((pid, signal) => void process.kill(pid, signal));
  let bootTimeMs = options.bootTimeMs;
  const bootTime = (): number => (bootTimeMs ??= readBootTime(run));

  /** `select` is ['-ax'] for every process or ['-p', pid] for one. */
  const table = (select: string[]): Map<number, ProcInfo> => {
    let rows = '';
    let args = '';
    try {
      rows = run('ps', [...select, '-o', TABLE_FORMAT]);
      args = run('ps', [...select, '-o', ARGS_FORMAT]);
    } catch {} // no ps, or `-p` of a gone pid exits 1: an empty (or partial) table, never a crash
    return parsePsTable(rows, args, bootTime(), clockTicks);
  };
  const read = (pid: number): ProcInfo | undefined =>
    Number.isInteger(pid) && pid > 0 ? table(['-p', String(pid)]).get(pid) : undefined;

  return {
    snapshot(): ProcessTable {
      const byPid = table(['-ax']);
      const children = new Map<number, number[]>();
      for (const p of byPid.values()) {
        const list = children.get(p.ppid);
        if (list) list.push(p.pid);
        else children.set(p.ppid, [p.pid]);
      }
      return { byPid, children, bootTimeMs: bootTime(), takenAtMs: Date.now() };
    },
    read,
    isAlive(pid) {
      if (!Number.isInteger(pid) || pid <= 0) return false;
      try {
        kill(pid, 0);
        return true;
      } catch (e) {
        return (e as NodeJS.ErrnoException).code !== 'ESRCH';
      }
    },
    startTicks: (pid) => read(pid)?.startTicks ?? null,
    locks: () => [],
    probeLock: () => null,
    lockHolders: () => [],
    lockHoldersMany: (paths) => new Map(paths.map((p) => [p, []])),
    signal: (pid, signal) => signalPid(kill, pid, signal),
  };
}

const ROW = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(-?\d+)\s+(\S+\s+\S+\s+\d+\s+[\d:]+\s+\d+)\s+(\S+)\s+(.*)$/;

/**
 * Joins the two `ps` outputs. argv comes from `args`, split on spaces: ps flattens argv into one
 * string, so arguments containing spaces cannot be recovered here (Linux /proc has no such loss).
 * tty names become a stable non-zero ttyNr; startTicks are derived from lstart (UTC, as psEnv has ps
 * print it; 1 s resolution).
 */
export function parsePsTable(rows: string, args: string, bootTimeMs: number, clockTicks: number): Map<number, ProcInfo> {
  const argvByPid = new Map<number, string[]>();
  for (const line of args.split('\n')) {
    const m = /^\s*(\d+)\s(.*)$/.exec(line);
    if (m?.[1]) argvByPid.set(Number(m[1]), (m[2] ?? '').trim().split(/\s+/).filter(Boolean));
  }
  const out = new Map<number, ProcInfo>();
  for (const line of rows.split('\n')) {
    const m = ROW.exec(line);
    if (!m) continue;
    const [, pid = '', ppid = '', pgid = '', tpgid = '', lstart = '', tty = '', comm = ''] = m;
    const startMs = parseLstart(lstart); // UTC: ps runs under psEnv
    const startedAtMs = Number.isFinite(startMs) ? startMs : bootTimeMs;
    const argv = argvByPid.get(Number(pid)) ?? [comm.trim()];
    out.set(Number(pid), {
      pid: Number(pid),
      ppid: Number(ppid),
      argv,
      comm: basename(comm.trim()).slice(0, 15),
      exe: null,
      cwd: null,
      ttyNr: ttyNumber(tty),
      tpgid: Number(tpgid),
      pgrp: Number(pgid),
      startTicks: Math.max(0, Math.round(((startedAtMs - bootTimeMs) / 1000) * clockTicks)),
      startedAtMs,
    });
  }
  return out;
}

/** '??' / '?' mean no tty → 0; otherwise a stable positive number per tty name. */
function ttyNumber(tty: string): number {
  if (tty === '??' || tty === '?' || tty === '-') return 0;
  let h = 0;
  for (let i = 0; i < tty.length; i++) h = (h * 31 + tty.charCodeAt(i)) >>> 0;
  return (h % 0x7fffffff) + 1;
}

function defaultRun(file: string, args: string[]): string {
  return execFileSync(file, args, { encoding: 'utf8', env: psEnv(), stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024, timeout: 5000 });
}

/** macOS `kern.boottime` prints `{ sec = 1700000000, usec = 5 } ...`. */
function readBootTime(run: (file: string, args: string[]) => string): number {
  try {
    const m = /sec\s*=\s*(\d+)/.exec(run('sysctl', ['-n', 'kern.boottime']));
    return m ? Number(m[1]) * 1000 : 0;
  } catch {
    return 0;
  }
}
