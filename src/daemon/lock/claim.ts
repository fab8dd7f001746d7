/**
 * Claiming a name atomically: write the whole record to a staging file unique to this attempt,
 * then link() it to the name. link fails with EEXIST if the name exists, so exactly one claimant
 * wins, and the name never exists without a complete record behind it.
 */
import { basename, dirname, join } from 'node:path';
import { errnoCode, lockIoError, unlinkIfPresent } from './operations.ts';
import { ownerIsLive, readOwner } from './read-lock.ts';
import type { LockOperations } from './types.ts';

/** `<target>.<pid>.<token>.tmp`: the pid lets a later sweep tell a crashed attempt from a live one. */
export function stagingPath(target: string, pid: number, token: string): string {
  return `${target}.${pid}.${token}.tmp`;
}

/** Writes `content` to a fresh staging file (0600) and returns its path. */
export function writeStaging(ops: LockOperations, target: string, pid: number, content: string): string {
  const staging = stagingPath(target, pid, ops.randomToken());
  try {
    ops.writeFile(staging, content);
  } catch (e) {
    throw lockIoError('write', staging, e);
  }
  return staging;
}

/** 'won' when `target` now holds `content`; 'exists' when someone else holds the name. */
export function claimFile(ops: LockOperations, target: string, pid: number, content: string): 'won' | 'exists' {
  const staging = writeStaging(ops, target, pid, content);
  try {
    ops.link(staging, target);
    return 'won';
  } catch (e) {
    if (errnoCode(e) === 'EEXIST') return 'exists';
    throw lockIoError('link a staging file to', target, e);
  } finally {
    // The name (if won) keeps its own link to the data; the staging name is no longer needed.
    unlinkIfPresent(ops, staging);
  }
}

/**
 * Removes `path` only if it still holds exactly `text`, so a file someone replaced since we
 * judged it is left alone. (A replacement landing between this read and the unlink is the one
 * window left; the .reclaim claim is what keeps two reclaimers out of it.)
 */
export function removeIfUnchanged(ops: LockOperations, path: string, text: string): boolean {
  let now: string;
  try {
    now = ops.readFile(path);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return false;
    throw lockIoError('read', path, e);
  }
  if (now !== text) return false;
  unlinkIfPresent(ops, path);
  return true;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * After a successful acquisition: remove staging files of crashed attempts (their pid is dead)
 * for the lock and its .reclaim, and a .reclaim file whose owner is dead. Returns removed paths.
 * Best effort: a leftover that cannot be removed now harms nothing (staging names are unique)
 * and is retried at the next acquisition, so failures here do not fail the acquisition.
 */
export function sweepLeftovers(ops: LockOperations, lockPath: string, ownPid: number): string[] {
  const dir = dirname(lockPath);
  const base = escapeRegExp(basename(lockPath));
  const staging = new RegExp(`^${base}(?:\\.reclaim)?\\.(\\d+)\\.[A-Za-z0-9_-]+\\.tmp$`);
  const removed: string[] = [];
  let names: string[];
  try {
    names = ops.readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = Number(staging.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === ownPid || ops.liveness(pid) === 'alive') continue;
    try {
      ops.unlink(join(dir, name));
      removed.push(join(dir, name));
    } catch {}
  }
  const reclaimPath = `${lockPath}.reclaim`;
  try {
    const owner = readOwner(ops, reclaimPath);
    if (owner.kind === 'owner' && !ownerIsLive(ops, owner.hint) && removeIfUnchanged(ops, reclaimPath, owner.text)) {
      removed.push(reclaimPath);
    }
  } catch {}
  return removed;
}
