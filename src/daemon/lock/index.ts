/**
 * The single-instance lock beside the store: one daemon per MUSTER_HOME, claimed by link(), read
 * with distrust, reclaimed only from a dead or reused pid, released only by its holder.
 */
export { acquireLock } from './acquire.ts';
export { readLock } from './read-lock.ts';
export { realStartTime } from './start-time.ts';
export { realLiveness } from './operations.ts';
export type {
  AcquireLockOptions,
  LockEndpoints,
  LockHandle,
  LockIdentity,
  LockOperations,
  LockReading,
  LockRecord,
  OwnerStart,
} from './types.ts';
