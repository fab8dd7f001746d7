/**
 * Reclaiming a stale lock under a second claim file, `<lock>.reclaim`, taken the same way as the
 * lock. The owner is re-read inside it, so two reclaimers that both saw the same dead owner cannot
 * delete each other's fresh lock: the second finds a different record and leaves it alone.
 */
import { claimFile, removeIfUnchanged } from './claim.ts';
import { ownerIsLive, readOwner } from './read-lock.ts';
import type { LockOperations } from './types.ts';

/** What an acquisition remembers across attempts. */
export interface ReclaimState {
  /** The file that blocked the latest attempt; named by the final lock_blocked error. */
  blocking: string;
  /** The ~20 ms grace for an unreadable lock is given once per acquisition. */
  unreadableWaited: boolean;
  /** Text of the .reclaim file last seen unreadable: seen again next attempt, it is abandoned. */
  lastUnreadableReclaim: string | null;
}

export interface ReclaimContext {
  ops: LockOperations;
  lockPath: string;
  pid: number;
  /** Our serialised record: staged into the lock, and into the .reclaim file to name its owner. */
  content: string;
  state: ReclaimState;
}

/** Wait before retrying behind a live reclaimer, doubling per attempt. In ms. */
function backoffMs(attempt: number): number {
  return Math.min(400, 25 * 2 ** (attempt - 1));
}

/** Someone holds .reclaim: abandon it if its owner is dead or it stays unreadable, else wait. */
async function handleBusyReclaim(ctx: ReclaimContext, reclaimPath: string, attempt: number): Promise<void> {
  const { ops, state } = ctx;
  state.blocking = reclaimPath;
  const view = readOwner(ops, reclaimPath);
  if (view.kind === 'absent') return;
  if (view.kind === 'unreadable') {
    if (state.lastUnreadableReclaim === view.text) {
      removeIfUnchanged(ops, reclaimPath, view.text);
      state.lastUnreadableReclaim = null;
      return;
    }
    state.lastUnreadableReclaim = view.text;
    await ops.sleep(backoffMs(attempt));
    return;
  }
  if (!ownerIsLive(ops, view.hint)) {
    // A reclaimer that died inside its claim: nobody else will ever remove this file.
    removeIfUnchanged(ops, reclaimPath, view.text);
    return;
  }
  await ops.sleep(backoffMs(attempt));
}

/**
 * Tries to replace the stale lock whose text was `staleText`. 'won' when we now hold the lock;
 * 'retry' when the next attempt should look again (another reclaimer is busy, or the lock changed).
 */
export async function reclaimStaleLock(ctx: ReclaimContext, staleText: string, attempt: number): Promise<'won' | 'retry'> {
  const { ops, lockPath, pid, content } = ctx;
  const reclaimPath = `${lockPath}.reclaim`;
  if (claimFile(ops, reclaimPath, pid, content) === 'exists') {
    await handleBusyReclaim(ctx, reclaimPath, attempt);
    return 'retry';
  }
  try {
    const owner = readOwner(ops, lockPath);
    // Changed since we judged it: a fresh lock of someone else (the next attempt judges it).
    if (owner.kind !== 'absent' && owner.text !== staleText) {
      ctx.state.blocking = lockPath;
      return 'retry';
    }
    if (owner.kind !== 'absent') removeIfUnchanged(ops, lockPath, staleText);
    // Claim while still holding .reclaim, so the reclaim does not cost another attempt.
    return claimFile(ops, lockPath, pid, content) === 'won' ? 'won' : 'retry';
  } finally {
    removeIfUnchanged(ops, reclaimPath, content);
  }
}
