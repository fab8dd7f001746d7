/**
 * Acquiring the single-instance lock, bounded in attempts (5).
 * Each attempt claims the lock by staging + link(); on EEXIST it judges the owner: live → a
 * typed failure, never displaced; gone → try again; stale → reclaim under `<lock>.reclaim`.
 */
import { MusterError } from '../../errors/index.ts';
import { claimFile, sweepLeftovers } from './claim.ts';
import { createLockHandle } from './handle.ts';
import { resolveOperations } from './operations.ts';
import { ownerIsLive, readOwner } from './read-lock.ts';
import type { OwnerHint } from './record.ts';
import { sameIdentity, serializeRecord, validateRecord } from './record.ts';
import { reclaimStaleLock } from './reclaim.ts';
import type { ReclaimContext } from './reclaim.ts';
import type { AcquireLockOptions, LockHandle, LockIdentity, LockOperations, LockRecord } from './types.ts';

/** How long an unreadable lock gets to become readable (a foreign writer may be mid-write). In ms. */
export const UNREADABLE_GRACE_MS = 20;
export const DEFAULT_MAX_ATTEMPTS = 5;

function buildRecord(identity: LockIdentity, pid: number, ops: LockOperations): LockRecord {
  const record: LockRecord = {
    serviceProtocolVersion: identity.serviceProtocolVersion,
    buildId: identity.buildId,
    protocolVersion: identity.protocolVersion,
    schemaMarker: identity.schemaMarker,
    runtimeVersion: identity.runtimeVersion,
    runtime: 'node',
    pid,
    epoch: 'starting',
    holder: ops.randomToken(),
    // Unreadable start time: this process's own start instant, a kind a Linux reader never
    // compares with its tick readings, so it can only ever read as "same process".
    ownerStartedAt: ops.startTime(pid) ?? { kind: 'instant', ms: Math.round(performance.timeOrigin) },
  };
  const valid = validateRecord(record);
  if (!valid.ok) throw new MusterError('invalid_argument', `cannot take the lock with this identity: ${valid.reason}`);
  return record;
}

function liveOwnerError(owner: OwnerHint, identity: LockIdentity): MusterError {
  if (owner.record !== null && sameIdentity(owner.record, identity)) {
    return new MusterError('already_running', `muster is already running (pid ${owner.pid})`, { details: { pid: owner.pid } });
  }
  const buildId = owner.buildId ?? 'an unknown build';
  return new MusterError(
    'owned_by_other_build',
    `the store is owned by pid ${owner.pid} running ${buildId}; run \`muster down\` to stop it, then retry`,
    { details: { pid: owner.pid, buildId } },
  );
}

/** Judges the lock after a lost claim. Throws for a live owner; otherwise says what to do next. */
async function judgeLock(ctx: ReclaimContext, identity: LockIdentity): Promise<{ next: 'retry' } | { next: 'reclaim'; text: string }> {
  let view = readOwner(ctx.ops, ctx.lockPath);
  if (view.kind === 'unreadable' && !ctx.state.unreadableWaited) {
    ctx.state.unreadableWaited = true;
    await ctx.ops.sleep(UNREADABLE_GRACE_MS);
    view = readOwner(ctx.ops, ctx.lockPath);
  }
  ctx.state.blocking = ctx.lockPath;
  if (view.kind === 'absent') return { next: 'retry' };
  if (view.kind === 'unreadable') return { next: 'reclaim', text: view.text };
  if (ownerIsLive(ctx.ops, view.hint)) throw liveOwnerError(view.hint, identity);
  return { next: 'reclaim', text: view.text };
}

export async function acquireLock(options: AcquireLockOptions): Promise<LockHandle> {
  const ops = resolveOperations(options.ops);
  const pid = options.pid ?? process.pid;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const record = buildRecord(options.identity, pid, ops);
  const ctx: ReclaimContext = {
    ops,
    lockPath: options.lockPath,
    pid,
    content: serializeRecord(record),
    state: { blocking: options.lockPath, unreadableWaited: false, lastUnreadableReclaim: null },
  };
  const won = (): LockHandle => {
    sweepLeftovers(ops, options.lockPath, pid);
    return createLockHandle(ops, options.lockPath, record);
  };

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (claimFile(ops, ctx.lockPath, pid, ctx.content) === 'won') return won();
    const verdict = await judgeLock(ctx, options.identity);
    if (verdict.next === 'retry') continue;
    if ((await reclaimStaleLock(ctx, verdict.text, attempt)) === 'won') return won();
  }
  const file = ctx.state.blocking;
  throw new MusterError(
    'lock_blocked',
    `could not take the lock after ${maxAttempts} attempts: ${file} kept blocking; ` +
      `if no muster process is running, remove ${file} and retry`,
    { details: { file } },
  );
}
