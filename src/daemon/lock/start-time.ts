/**
 * Reading a process's start time, so a lock whose pid now belongs to another process (pid reuse)
 * can be told from a live owner. Linux: boot time + start ticks (/proc/<pid>/stat field 22);
 * elsewhere: the start instant from `ps -o lstart=` (one-second resolution).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseLstart, psEnv } from '../../discovery/proc/index.ts';
import type { OwnerStart } from './types.ts';

/** Where start times come from; tests pass a fixture /proc root or a canned ps answer. */
export interface StartTimeSources {
  /** Default: process.platform. */
  platform: NodeJS.Platform;
  /** Default: '/proc'. */
  procRoot: string;
  /** Default: fs.readFileSync as utf8. May throw (the process is gone). */
  readFile(path: string): string;
  /** Default: `ps -o lstart= -p <pid>` under psEnv (LC_ALL=C, TZ=UTC: printed in UTC); null when ps fails or the pid is gone. */
  psLstart(pid: number): string | null;
}

/**
 * Instants (ps) have one-second resolution and the own-process fallback is sub-second, so two
 * instants only prove reuse when they differ by this much. In ms.
 */
const INSTANT_TOLERANCE_MS = 2000;

const defaultSources: StartTimeSources = {
  platform: process.platform,
  procRoot: '/proc',
  readFile: (path) => readFileSync(path, 'utf8'),
  psLstart: (pid) => {
    try {
      const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
        encoding: 'utf8',
        env: psEnv(),
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 2000,
      });
      return out.trim() === '' ? null : out;
    } catch {
      return null;
    }
  },
};

/** `btime` of /proc/stat in ms since epoch, null when absent. */
export function parseBootTimeMs(procStat: string): number | null {
  const m = /^btime\s+(\d+)\s*$/m.exec(procStat);
  return m ? Number(m[1]) * 1000 : null;
}

/**
 * Field 22 (starttime, in clock ticks since boot) of /proc/<pid>/stat. Field 2 (comm) is in
 * parentheses and may itself contain spaces and ')', so fields are counted after the last ')'.
 */
export function parseStatStartTicks(stat: string): number | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  // After ')' come fields 3, 4, …; field 22 is therefore index 19.
  const fields = stat.slice(close + 1).trim().split(/\s+/);
  const raw = fields[19];
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const ticks = Number(raw);
  return Number.isSafeInteger(ticks) ? ticks : null;
}

/** Builds a start-time reader over the given sources (real ones by default). Never throws. */
export function createStartTimeReader(sources: Partial<StartTimeSources> = {}): (pid: number) => OwnerStart | null {
  const src: StartTimeSources = { ...defaultSources, ...sources };
  return (pid) => {
    if (!Number.isSafeInteger(pid) || pid <= 0) return null;
    if (src.platform === 'linux') {
      try {
        const ticks = parseStatStartTicks(src.readFile(`${src.procRoot}/${pid}/stat`));
        const bootTimeMs = parseBootTimeMs(src.readFile(`${src.procRoot}/stat`));
        if (ticks === null || bootTimeMs === null) return null;
        return { kind: 'linux-ticks', bootTimeMs, ticks };
      } catch {
        return null;
      }
    }
    const out = src.psLstart(pid);
    if (out === null) return null;
    const ms = parseLstart(out);
    return Number.isFinite(ms) ? { kind: 'instant', ms } : null;
  };
}

const readRealStartTime = createStartTimeReader();

/** Start time of `pid` on this host now; null if unreadable (gone, no /proc, no ps). */
export function realStartTime(pid: number): OwnerStart | null {
  return readRealStartTime(pid);
}

/**
 * True only when the two readings prove different processes: same kind, and on Linux different
 * ticks (boot time ignored: it jitters), or instants further apart than the ps resolution.
 * Anything that cannot be compared counts as the same process: reclaiming is the destructive answer.
 */
export function startTimesDisagree(recorded: OwnerStart | null, now: OwnerStart | null): boolean {
  if (recorded === null || now === null) return false;
  if (recorded.kind === 'linux-ticks' && now.kind === 'linux-ticks') return recorded.ticks !== now.ticks;
  if (recorded.kind === 'instant' && now.kind === 'instant') return Math.abs(recorded.ms - now.ms) >= INSTANT_TOLERANCE_MS;
  return false;
}
