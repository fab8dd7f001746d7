/**
 * The handle of an acquired lock: publish endpoints, check we still hold it, release it.
 * Every write is guarded by the holder token so a daemon that lost its lock (reclaimed while it
 * was frozen, say) can neither overwrite nor delete the new owner's record.
 */
import { MusterError } from '../../errors/index.ts';
import { removeIfUnchanged, writeStaging } from './claim.ts';
import { lockIoError, unlinkIfPresent } from './operations.ts';
import { readOwner } from './read-lock.ts';
import type { OwnerView } from './read-lock.ts';
import { serializeRecord, validateEndpoints } from './record.ts';
import type { LockEndpoints, LockHandle, LockOperations, LockRecord } from './types.ts';

function lockLost(path: string, why: string): MusterError {
  return new MusterError(
    'lock_lost',
    `lost the lock ${path}: ${why}; stop serving, then start again with \`muster up\``,
    { details: { path } },
  );
}

export function createLockHandle(ops: LockOperations, path: string, initial: LockRecord): LockHandle {
  let record = initial;
  let released = false;

  const carriesOurHolder = (view: OwnerView): boolean => view.kind === 'owner' && view.hint.holder === record.holder;

  return {
    path,
    get record() {
      return record;
    },

    publish(endpoints: LockEndpoints): void {
      if (released) throw lockLost(path, 'it was released by this process');
      const valid = validateEndpoints(endpoints);
      if (!valid.ok) throw new MusterError('invalid_argument', `cannot publish endpoints: ${valid.reason}`);
      if (!carriesOurHolder(readOwner(ops, path))) throw lockLost(path, 'another process replaced or removed it');
      const next: LockRecord = { ...record, epoch: 'ready', endpoints: valid.value };
      // rename, not link: the name already exists and must switch to the new record atomically.
      const staging = writeStaging(ops, path, record.pid, serializeRecord(next));
      try {
        ops.rename(staging, path);
      } catch (e) {
        unlinkIfPresent(ops, staging);
        throw lockIoError('replace', path, e);
      }
      record = next;
    },

    stillHeld(): boolean {
      if (released) return false;
      try {
        return carriesOurHolder(readOwner(ops, path));
      } catch {
        // Unreadable to us: we cannot show it still carries our token.
        return false;
      }
    },

    release(): void {
      if (released) return;
      const view = readOwner(ops, path);
      // Compare-then-remove on the exact text read: someone else's record is never deleted.
      if (view.kind === 'owner' && carriesOurHolder(view)) removeIfUnchanged(ops, path, view.text);
      released = true;
    },
  };
}
