/**
 * Real defaults of LockOperations, and the small errno helpers the lock needs.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { MusterError } from '../../errors/index.ts';
import { realStartTime } from './start-time.ts';
import { hasExited, parseStat } from '../../discovery/proc/index.ts';
import type { LockOperations } from './types.ts';

/** The errno code (`ENOENT`, …) of a thrown fs/process error, undefined for anything else. */
export function errnoCode(e: unknown): string | undefined {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string') return e.code;
  return undefined;
}

/**
 * kill(pid, 0): only ESRCH proves the process is gone; EPERM (someone else's process) means it exists.
 * A zombie also answers kill(pid, 0): a daemon killed with -9 stays one until its parent reaps it
 * (a second or two, or never for a parent that does not wait), so on Linux its /proc state decides,
 * by the same rule as session liveness. Elsewhere (no /proc) kill's answer stands.
 */
export function realLiveness(pid: number): 'alive' | 'dead' {
  // kill(0 or negative) would address a process group, never a single owner.
  if (!Number.isSafeInteger(pid) || pid <= 0) return 'dead';
  try {
    process.kill(pid, 0);
  } catch (e) {
    return errnoCode(e) === 'ESRCH' ? 'dead' : 'alive';
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 'alive';
  }
  const state = parseStat(stat)?.state;
  return state !== undefined && hasExited(state) ? 'dead' : 'alive';
}

export const defaultLockOperations: LockOperations = {
  liveness: realLiveness,
  startTime: realStartTime,
  randomToken: () => randomBytes(9).toString('base64url'),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  // 'wx': a staging name is unique per attempt; if it somehow exists, fail rather than share it.
  writeFile: (path, data) => writeFileSync(path, data, { flag: 'wx', mode: 0o600 }),
  link: (existingPath, newPath) => linkSync(existingPath, newPath),
  rename: (from, to) => renameSync(from, to),
  unlink: (path) => unlinkSync(path),
  readFile: (path) => readFileSync(path, 'utf8'),
  readdir: (dir) => readdirSync(dir),
};

export function resolveOperations(ops: Partial<LockOperations> | undefined): LockOperations {
  return { ...defaultLockOperations, ...ops };
}

/** An unexpected fs failure, naming the path and what to check. */
export function lockIoError(action: string, path: string, cause: unknown): MusterError {
  const code = errnoCode(cause) ?? 'unknown error';
  return new MusterError(
    'lock_io',
    `cannot ${action} ${path} (${code}); check that its directory exists, is writable by this user, ` +
      'and is on a local filesystem that supports hard links',
    { details: { path, errno: code }, cause },
  );
}

/** unlink that treats "already gone" as success. */
export function unlinkIfPresent(ops: LockOperations, path: string): void {
  try {
    ops.unlink(path);
  } catch (e) {
    if (errnoCode(e) !== 'ENOENT') throw lockIoError('remove', path, e);
  }
}
