/**
 * Reading the lock: the distrustful reader (readLock, used by the CLI to find the daemon) and the
 * owner view acquire judges a claim file by.
 */
import { errnoCode, lockIoError, resolveOperations } from './operations.ts';
import { parseOwnerHint, parseRecordText, sameIdentity } from './record.ts';
import type { OwnerHint } from './record.ts';
import { startTimesDisagree } from './start-time.ts';
import type { LockIdentity, LockOperations, LockReading, OwnerStart } from './types.ts';

export type OwnerView =
  | { kind: 'absent' }
  /** The name exists but names no pid: empty, partial (a foreign writer mid-write) or garbage. */
  | { kind: 'unreadable'; text: string }
  | { kind: 'owner'; text: string; hint: OwnerHint };

/** Reads a claim file (the lock or its .reclaim). Throws lock_io for anything but "absent". */
export function readOwner(ops: LockOperations, path: string): OwnerView {
  let text: string;
  try {
    text = ops.readFile(path);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return { kind: 'absent' };
    // Not readable by us (EACCES, EISDIR…) is not "stale": deleting it would be a guess.
    throw lockIoError('read', path, e);
  }
  const hint = parseOwnerHint(text);
  return hint === null ? { kind: 'unreadable', text } : { kind: 'owner', text, hint };
}

/**
 * Alive: kill(pid, 0) finds it and its start time does not prove pid reuse. A start time that
 * cannot be read or compared counts as the same process.
 */
export function ownerIsLive(ops: LockOperations, owner: { pid: number; start: OwnerStart | null }): boolean {
  if (ops.liveness(owner.pid) === 'dead') return false;
  return !startTimesDisagree(owner.start, ops.startTime(owner.pid));
}

/**
 * What the lock says, distrusted: a record is accepted only if structurally valid; a record from
 * another build is returned (to report who owns the store) with current=false and never usable.
 * Never throws: a lock this user cannot read is 'invalid' with the reason.
 */
export function readLock(lockPath: string, identity: LockIdentity, ops?: Partial<LockOperations>): LockReading {
  const o = resolveOperations(ops);
  let text: string;
  try {
    text = o.readFile(lockPath);
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT') return { state: 'absent' };
    return { state: 'invalid', reason: `cannot read ${lockPath} (${code ?? 'unknown error'})` };
  }
  const parsed = parseRecordText(text);
  if (!parsed.ok) return { state: 'invalid', reason: parsed.reason };
  const record = parsed.value;
  const current = sameIdentity(record, identity);
  const alive = ownerIsLive(o, { pid: record.pid, start: record.ownerStartedAt });
  const usable = current && alive && record.epoch === 'ready' && record.endpoints !== undefined;
  return { state: 'record', record, current, alive, usable };
}
