// Codex's tool calls paired with their outputs inside the module. A clean tool call (rollout.ts,
// applyResponseItem: a `*_call` with a call id) adds the call to the summary's pending calls, and its output,
// passed over by its head (CLOSE), takes it away again; a turn's start, end or abort empties them. While the
// host's pending calls are empty (it says so: flag PENDING_EMPTY), a clean tool call whose fields are plain
// is held here instead of handed over: the output that closes it cancels both, and a turn event that
// empties the pending calls cancels all that are held. Either way the host only counts them (`paired`:
// a record each; the call's time is kept in MAXTS). Before any other line that may touch the pending calls,
// and before the chunk is given up, the held calls are handed over after all, in their order (the module
// scans each again), so the summary is the one the host would have folded line by line.
import { HELD, INPUT, K_OBJECT, K_STRING } from './layout';
import { flags, from, kind, plain, to } from './out';
import { sameBytes, startsWith } from './bytes';
import { keepLatest } from './codex';

const MAX_HELD: i32 = 64;
// The nodes, as rollout-fast.ts's PATHS number them.
const N_TIMESTAMP: i32 = 2;
const N_PAYLOAD: i32 = 3;
const N_PAYLOAD_TYPE: i32 = 4;
const N_CALL_ID: i32 = 5;

let heldN: i32 = 0;
let paired: i32 = 0;

/** Calls held now. */
export function held(): i32 { return heldN; }
/** The held call i's line, [start, end) relative to INPUT. */
export function heldStart(i: i32): usize { return <usize>load<i32>(HELD + (<usize>i << 4)); }
export function heldEnd(i: i32): usize { return <usize>load<i32>(HELD + (<usize>i << 4) + 4); }
/** All were handed over. */
export function dropHeld(): void { heldN = 0; }
/** Records folded by pairing since the last call (the counter restarts). */
export function takePaired(): i32 { const n = paired; paired = 0; return n; }
/** A new read: nothing is held. */
export function resetHeld(): void { heldN = 0; paired = 0; }

/** True when the held call i has the id [p, p + n). */
function heldHas(i: i32, p: usize, n: usize): bool {
  const h = HELD + (<usize>i << 4);
  const a = INPUT + <usize>load<i32>(h + 8);
  return <usize>load<i32>(h + 12) - (a - INPUT) == n && sameBytes(a, p, n);
}

// What a clean response item is to the pairing.
export const PASS: i32 = 0; // not a tool call nor an output: nothing to do
export const HOLD: i32 = 1; // held
export const FLUSH: i32 = 2; // the held calls must be handed over first

/**
 * A clean response_item (OUT holds it), the line [p, e): held when it is a tool call the module can hold;
 * `hostEmpty`: the host's pending calls are empty.
 */
export function responseItem(p: usize, e: usize, hostEmpty: bool): i32 {
  if (kind(N_CALL_ID) != K_STRING) return PASS; // no call id: applyResponseItem does nothing
  if (heldN == 0 && !hostEmpty) return PASS;
  // A tool call with plain fields, and a time the module compares (ASCII, no escape).
  const ok = kind(N_PAYLOAD) == K_OBJECT && plain(N_PAYLOAD_TYPE) && plain(N_CALL_ID) &&
    kind(N_TIMESTAMP) == K_STRING && flags(N_TIMESTAMP) == 0;
  if (!ok) return heldN > 0 ? FLUSH : PASS;
  const t0 = from(N_PAYLOAD_TYPE) + 1;
  const t1 = to(N_PAYLOAD_TYPE) - 1;
  const call = t1 - t0 >= 5 && startsWith(t1 - 5, t1, '_call');
  if (!call) return heldN > 0 ? FLUSH : PASS; // an output read whole, or another item with a call id
  const id = from(N_CALL_ID) + 1;
  const n = to(N_CALL_ID) - 1 - id;
  for (let i = 0; i < heldN; i++) if (heldHas(i, id, n)) return FLUSH; // the same id again
  if (heldN == MAX_HELD) return FLUSH;
  const h = HELD + (<usize>heldN << 4);
  store<i32>(h, <i32>(p - INPUT));
  store<i32>(h + 4, <i32>(e - INPUT));
  store<i32>(h + 8, <i32>(id - INPUT));
  store<i32>(h + 12, <i32>(id + n - INPUT));
  heldN++;
  keepLatest(from(N_TIMESTAMP) + 1, to(N_TIMESTAMP) - 1);
  return HOLD;
}

/** An output, passed over by its head, closing the call [p, p + n): true when it closed a held one (both are counted). */
export function closes(p: usize, n: usize): bool {
  for (let i = 0; i < heldN; i++) {
    if (!heldHas(i, p, n)) continue;
    // Keep the others in their order.
    memory.copy(HELD + (<usize>i << 4), HELD + (<usize>(i + 1) << 4), <usize>(heldN - i - 1) << 4);
    heldN--;
    paired++;
    return true;
  }
  return false;
}

/**
 * A clean event while calls are held: PASS, or FLUSH when the host must have them first. A turn's start,
 * end or abort (applyEvent) empties the pending calls: those held are then only counted.
 */
export function event(): i32 {
  if (heldN == 0) return PASS;
  if (kind(N_PAYLOAD_TYPE) != K_STRING) return PASS;
  if (!plain(N_PAYLOAD_TYPE)) return FLUSH; // a type spelt with escapes may be one of those
  if (kind(N_PAYLOAD) != K_OBJECT || kind(N_TIMESTAMP) != K_STRING) return PASS; // not applied at all
  const t0 = from(N_PAYLOAD_TYPE) + 1;
  const t1 = to(N_PAYLOAD_TYPE) - 1;
  const reset = (t1 - t0 == 12 && startsWith(t0, t1, 'task_started')) || (t1 - t0 == 13 && startsWith(t0, t1, 'task_complete')) ||
    (t1 - t0 == 12 && startsWith(t0, t1, 'turn_aborted'));
  if (reset) {
    paired += heldN;
    heldN = 0;
  }
  return PASS;
}
