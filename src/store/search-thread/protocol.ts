/**
 * What the store's thread and the search thread share: the thread's start data, its messages, and a
 * shared signal the store's thread reads (and waits on, to flush or close) without a message back.
 */
import type { SearchOp } from '../search.ts';

export interface SearchThreadInit {
  /** The search database file (made and migrated by the store's thread before the thread starts). */
  path: string;
  /** Int32Array slots: SIGNAL_WRITTEN and SIGNAL_STATE. */
  signal: SharedArrayBuffer;
}

export type SearchThreadMessage =
  /** `rows`: the messages the ops bring (rowsOf, counted once by the sender). */
  | { op: 'ops'; seq: number; ops: SearchOp[]; rows: number; withOutput: boolean }
  | { op: 'close' };

/** The sequence number of the last batch of ops committed. */
export const SIGNAL_WRITTEN = 0;
/** STATE_RUNNING, STATE_CLOSED or STATE_FAILED. */
export const SIGNAL_STATE = 1;
export const STATE_RUNNING = 0;
export const STATE_CLOSED = 1;
export const STATE_FAILED = 2;
