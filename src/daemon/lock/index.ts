/**
 * The single-instance lock beside the store (../shared/BEHAVIOUR.md section A).
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
