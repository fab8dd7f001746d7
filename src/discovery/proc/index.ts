/**
 * The process-table port: Linux /proc first, `ps` where there is none (macOS).
 */
import { createLinuxProc } from './proc-linux.ts';
import { createPsProc } from './proc-ps.ts';
import type { ProcPort } from './types.ts';

export interface ProcOptions {
  /** /proc root. Default: '/proc'. A fixture directory in tests (forces the /proc reader). */
  root?: string;
  /** Default: process.platform. Only 'linux' (or an explicit root) reads /proc. */
  platform?: NodeJS.Platform;
  /** USER_HZ. Default: 100. */
  clockTicks?: number;
  /** Signal sender (throws like process.kill). Default: process.kill. */
  kill?: (pid: number, signal: NodeJS.Signals | 0) => void;
}

export function createProc(options: ProcOptions = {}): ProcPort {
  const platform = options.platform ?? process.platform;
  const common = { clockTicks: options.clockTicks, kill: options.kill };
  if (platform === 'linux' || options.root !== undefined) return createLinuxProc({ ...common, root: options.root });
  return createPsProc(common);
}

export { createLinuxProc } from './proc-linux.ts';
export type { LinuxProcOptions } from './proc-linux.ts';
export { createPsProc, parsePsTable } from './proc-ps.ts';
export type { PsProcOptions } from './proc-ps.ts';
export { parseLstart, psEnv } from './ps-env.ts';
export { hasExited, parseStat } from './proc-stat.ts';
export type { ProcStat } from './proc-stat.ts';
export { devToLocksText, parseProcLocks } from './proc-locks.ts';
export { descendants } from './proc-descendants.ts';
export { createLivenessProbe } from './liveness.ts';
export { shareSnapshotPerTurn } from './shared-snapshot.ts';
export type { LivenessFileOps, LivenessProbe, LivenessProbeOptions } from './liveness.ts';
export type { DescendantsFn, FileLock, ProcInfo, ProcPort, ProcessTable } from './types.ts';
