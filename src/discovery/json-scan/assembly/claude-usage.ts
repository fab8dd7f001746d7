// The token counts of Claude's summary as the module folds them (claude-summary.ts): per model since the
// host last took them (and since the last cost record), and the recent message ids whose repeats add only
// what grew (transcript-usage.ts, countAssistantUsage), a ring of RECENT_MAX the host writes in and reads back.
import {
  D_RECENT, M_SIZE, MAX_MODELS, R_SIZE, RECENT_MAX, S_DIRTY, S_MODELS, S_MODELS_N, S_RECENT, S_RECENT_HEAD, S_RECENT_N, S_TOKENS, SUMMARY,
} from './layout';
import { sameBytes } from './bytes';

@inline export function dirty(): i32 { return load<i32>(SUMMARY + S_DIRTY); }
@inline export function mark(bit: i32): void { store<i32>(SUMMARY + S_DIRTY, dirty() | bit); }

/**
 * The host applied a cost record, which starts the tokens not yet costed again (transcript-usage.ts,
 * applyCostState): what the module counted before it no longer counts as uncosted.
 */
export function resetUncosted(): void {
  const n = load<i32>(SUMMARY + S_MODELS_N);
  for (let i = 0; i < n; i++) {
    const m = SUMMARY + S_MODELS + <usize>i * M_SIZE;
    store<i32>(m + 4, 0);
    for (let k: usize = 0; k < 4; k++) store<f64>(m + 48 + (k << 3), 0);
  }
}

/** The model's slot in S_MODELS (its name `len` bytes at p), added when new; -1 when the table is full. */
export function modelSlot(p: usize, len: i32): i32 {
  const n = load<i32>(SUMMARY + S_MODELS_N);
  for (let i = 0; i < n; i++) {
    const m = SUMMARY + S_MODELS + <usize>i * M_SIZE;
    if (load<i32>(m) == len && sameBytes(m + 80, p, <usize>len)) return i;
  }
  if (n == MAX_MODELS) return -1;
  const m = SUMMARY + S_MODELS + <usize>n * M_SIZE;
  store<i32>(m, len);
  store<i32>(m + 4, 0);
  memory.copy(m + 80, p, <usize>len);
  for (let i: usize = 0; i < 8; i++) store<f64>(m + 16 + (i << 3), 0);
  store<i32>(SUMMARY + S_MODELS_N, n + 1);
  return n;
}

@inline function recentAt(i: i32): usize {
  return SUMMARY + S_RECENT + <usize>((load<i32>(SUMMARY + S_RECENT_HEAD) + i) % RECENT_MAX) * R_SIZE;
}

/** The recent message with the id at p (len bytes), or 0. */
function findRecent(p: usize, len: i32): usize {
  const n = load<i32>(SUMMARY + S_RECENT_N);
  for (let i = 0; i < n; i++) {
    const r = recentAt(i);
    if (load<i32>(r) == len && sameBytes(r + 48, p, <usize>len)) return r;
  }
  return 0;
}

/** A new recent message (the oldest forgotten past RECENT_MAX), with the id at p and the model at mp. */
function pushRecent(p: usize, len: i32, mp: usize, mlen: i32): usize {
  const n = load<i32>(SUMMARY + S_RECENT_N);
  let r: usize;
  if (n < RECENT_MAX) {
    r = recentAt(n);
    store<i32>(SUMMARY + S_RECENT_N, n + 1);
  } else {
    r = recentAt(0);
    store<i32>(SUMMARY + S_RECENT_HEAD, (load<i32>(SUMMARY + S_RECENT_HEAD) + 1) % RECENT_MAX);
  }
  store<i32>(r, len);
  store<i32>(r + 4, mlen);
  memory.copy(r + 48, p, <usize>len);
  memory.copy(r + 176, mp, <usize>mlen);
  return r;
}

/** Adds d to the f64 at p. */
@inline function add(p: usize, d: f64): void { store<f64>(p, load<f64>(p) + d); }

/**
 * Counts a message's usage (c0..c3) once per id (transcript-usage.ts, countAssistantUsage; idLen 0: no id),
 * under model slot `slot`.
 */
export function countUsage(slot: i32, id: usize, idLen: i32, name: usize, nameLen: i32, c0: f64, c1: f64, c2: f64, c3: f64): void {
  let d0 = c0;
  let d1 = c1;
  let d2 = c2;
  let d3 = c3;
  if (idLen > 0) {
    let r = findRecent(id, idLen);
    if (r != 0) {
      // A repeat adds only what grew.
      const p0 = load<f64>(r + 16);
      const p1 = load<f64>(r + 24);
      const p2 = load<f64>(r + 32);
      const p3 = load<f64>(r + 40);
      d0 = max<f64>(0, c0 - p0);
      d1 = max<f64>(0, c1 - p1);
      d2 = max<f64>(0, c2 - p2);
      d3 = max<f64>(0, c3 - p3);
      store<f64>(r + 16, max<f64>(p0, c0));
      store<f64>(r + 24, max<f64>(p1, c1));
      store<f64>(r + 32, max<f64>(p2, c2));
      store<f64>(r + 40, max<f64>(p3, c3));
    } else {
      r = pushRecent(id, idLen, name, nameLen);
      store<f64>(r + 16, c0);
      store<f64>(r + 24, c1);
      store<f64>(r + 32, c2);
      store<f64>(r + 40, c3);
    }
    mark(D_RECENT);
  }
  const t = SUMMARY + S_TOKENS;
  add(t, d0);
  add(t + 8, d1);
  add(t + 16, d2);
  add(t + 24, d3);
  const m = SUMMARY + S_MODELS + <usize>slot * M_SIZE;
  add(m + 16, d0);
  add(m + 24, d1);
  add(m + 32, d2);
  add(m + 40, d3);
  // And since the last cost record (the summary's `uncosted`).
  store<i32>(m + 4, 1);
  add(m + 48, d0);
  add(m + 56, d1);
  add(m + 64, d2);
  add(m + 72, d3);
}
