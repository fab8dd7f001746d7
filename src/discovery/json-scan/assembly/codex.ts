// Codex rollout lines by their first bytes, as rollout-lines.ts reads them (its headVerdict, timestampOf
// and callIdOf, and token-lines.ts's readTokenLine, say the same in TypeScript): a head is the first 640
// bytes, the record's type is the first `,"type":"` in it, and the big records Muster never shows are
// passed over from there, with the time they carry kept as the latest (MAXTS).
import { INPUT, MAXTS, SPANS, TOTAL } from './layout';
import { hasNonAscii, indexOf, startsWith } from './bytes';
import { scanNumber } from './json';

const HEAD_BYTES: usize = 640;
const MAX_TOKEN_LINE: usize = 4096;
const TIMESTAMP_HEAD: usize = 14; // {"timestamp":"

export const PARSE: i32 = 0;
export const IGNORE: i32 = 1;
export const CLOSE: i32 = 2; // ignored, and it closes the call whose id is SPANS[0..1]

@inline function isLower(c: u32): bool { return (c >= 0x61 && c <= 0x7a) || c == 0x5f; }
@inline function isAlpha(c: u32): bool { return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a); }

/** The first `"call_id":"…"` with a value of no quote nor backslash, in the head: its value in SPANS[0..1]. */
function callId(p: usize, he: usize): bool {
  let at = indexOf(p, he, '"call_id":"');
  while (at >= 0) {
    const start = <usize>at + 11;
    let end = start;
    while (end < he && load<u8>(end) != 0x22 && load<u8>(end) != 0x5c) end++;
    if (end > start && end < he && load<u8>(end) == 0x22) {
      store<i32>(SPANS, <i32>(start - INPUT));
      store<i32>(SPANS + 4, <i32>(end - INPUT));
      return true;
    }
    at = indexOf(<usize>at + 1, he, '"call_id":"');
  }
  return false;
}

/** Where the head's record type is (`,"type":"`), as codexVerdict found it; -1: none. */
let recordAt: isize = -1;

/** What the head of the line [p, e) says (PARSE, IGNORE or CLOSE); `promptKnown`: the first prompt is read. */
export function codexVerdict(p: usize, e: usize, promptKnown: bool): i32 {
  const he = e - p > HEAD_BYTES ? p + HEAD_BYTES : e;
  const found = indexOf(p, he, ',"type":"');
  recordAt = found;
  if (found < 0) return PARSE;
  const at = <usize>found;
  if (startsWith(at, he, ',"type":"world_state","payload":')) return IGNORE;
  if (startsWith(at, he, ',"type":"response_item","payload":{"type":"')) {
    const start = at + 43;
    if (startsWith(start, he, 'message"') || startsWith(start, he, 'reasoning"')) return IGNORE;
    let end = start;
    while (end < he && isLower(<u32>load<u8>(end))) end++;
    const callOutput = end < he && load<u8>(end) == 0x22 && end - start > 12 && startsWith(end - 12, he, '_call_output');
    return callOutput && callId(p, he) ? CLOSE : PARSE;
  }
  if (startsWith(at, he, ',"type":"event_msg","payload":{"type":"item_completed"')) {
    const item = indexOf(at, he, '"item":{"type":"');
    if (item < 0) return PARSE; // no item type: parsed
    const start = <usize>item + 16;
    let end = start;
    while (end < he && isAlpha(<u32>load<u8>(end))) end++;
    if (end == start || end >= he || load<u8>(end) != 0x22) return PARSE;
    const user = startsWith(start, he, 'UserMessage"');
    return !promptKnown && user ? PARSE : IGNORE;
  }
  return PARSE;
}

/** The time in the head (`{"timestamp":"…"`) as [start, end) in SPANS[0..1]; false when it has none. */
function headTime(p: usize, e: usize): bool {
  const he = e - p > HEAD_BYTES ? p + HEAD_BYTES : e;
  if (!startsWith(p, he, '{"timestamp":"')) return false;
  const start = p + TIMESTAMP_HEAD;
  let end = start;
  while (end < he && load<u8>(end) != 0x22) end++;
  if (end >= he || end == start) return false;
  store<i32>(SPANS + 8, <i32>(start - INPUT));
  store<i32>(SPANS + 12, <i32>(end - INPUT));
  return true;
}

/**
 * Keeps the time of a line passed over as the latest when it is later (the summary's lastActivityAt is
 * the latest of them all, whatever their order). False when the time is not ASCII: the host then reads
 * the line, and compares the time as JavaScript does.
 */
export function noteTime(p: usize, e: usize): bool {
  if (!headTime(p, e)) return true;
  const start = INPUT + <usize>load<i32>(SPANS + 8);
  const end = INPUT + <usize>load<i32>(SPANS + 12);
  if (hasNonAscii(start, end)) return false;
  keepLatest(start, end);
  return true;
}

/** Keeps the ASCII time [start, end) in MAXTS when it is later than the one there (as strings compare). */
export function keepLatest(start: usize, end: usize): void {
  const n = end - start;
  const held = load<i32>(MAXTS);
  if (held >= 0) {
    const m = <usize>held;
    let i: usize = 0;
    while (i < n && i < m && load<u8>(start + i) == load<u8>(MAXTS + 4 + i)) i++;
    const later = i < n && (i == m || load<u8>(start + i) > load<u8>(MAXTS + 4 + i));
    if (!later) return;
  }
  memory.copy(MAXTS + 4, start, n);
  store<i32>(MAXTS, <i32>n);
}

/** Where the flat object at `at` ends (just past its first '}'), or 0 when no object starts there. */
function objectEnd(at: usize, e: usize): usize {
  if (at >= e || load<u8>(at) != 0x7b) return 0;
  for (let q = at; q < e; q++) if (load<u8>(q) == 0x7d) return q + 1;
  return 0;
}

/**
 * A token line in the layout Codex writes (token-lines.ts): its running total's object in SPANS[0..1]
 * and its head's time in SPANS[2..3] (-1 when it has none); false when it is not one. Called right after
 * codexVerdict on the same line.
 */
export function codexTokenLine(p: usize, e: usize): bool {
  if (e - p > MAX_TOKEN_LINE) return false;
  const he = e - p > HEAD_BYTES ? p + HEAD_BYTES : e;
  const found = recordAt;
  if (found < 0) return false;
  const at = <usize>found;
  let totalAt: usize = 0;
  let totalEnd: usize = 0;
  if (startsWith(at, he, ',"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":')) {
    totalAt = at + 80;
    totalEnd = objectEnd(totalAt, e);
    if (totalEnd == 0 || !startsWith(totalEnd, e, ',"last_token_usage":')) return false;
    if (objectEnd(totalEnd + 20, e) == 0) return false;
  } else if (startsWith(at, he, ',"type":"token_usage_record","payload":{')) {
    const usage = indexOf(at + 40, e, ',"usage":');
    if (usage < 0) return false;
    const usageEnd = objectEnd(<usize>usage + 9, e);
    if (usageEnd == 0 || !startsWith(usageEnd, e, ',"turn_token_usage":')) return false;
    const turnEnd = objectEnd(usageEnd + 20, e);
    if (turnEnd == 0 || !startsWith(turnEnd, e, ',"thread_token_usage":')) return false;
    totalAt = turnEnd + 22;
    totalEnd = objectEnd(totalAt, e);
    if (totalEnd == 0 || totalEnd + 2 != e || !startsWith(totalEnd, e, '}}')) return false;
  } else return false;
  if (!headTime(p, e)) {
    store<i32>(SPANS + 8, -1);
    store<i32>(SPANS + 12, -1);
  }
  store<i32>(SPANS, <i32>(totalAt - INPUT));
  store<i32>(SPANS + 4, <i32>(totalEnd - INPUT));
  store<i32>(TOTAL + 32, readTotal(totalAt, totalEnd) ? 1 : 0);
  return true;
}

/**
 * True when the host folds the token line codexTokenLine found as a token line (a time in its head without
 * escapes, a total the module read), not by parsing it whole, which may find records of any kind in it.
 */
export function tokenSettled(): bool {
  if (load<i32>(TOTAL + 32) != 1 || load<i32>(SPANS + 8) < 0) return false;
  const end = INPUT + <usize>load<i32>(SPANS + 12);
  for (let q = INPUT + <usize>load<i32>(SPANS + 8); q < end; q++) if (load<u8>(q) == 0x5c) return false;
  return true;
}

/** Which count a key names (0 input_tokens, 1 cached_input_tokens, 2 output_tokens, 3 cache_write_input_tokens), or -1. */
function countKey(k: usize, e: usize): i32 {
  const n = e - k;
  if (n == 12 && startsWith(k, e, 'input_tokens')) return 0;
  if (n == 19 && startsWith(k, e, 'cached_input_tokens')) return 1;
  if (n == 13 && startsWith(k, e, 'output_tokens')) return 2;
  if (n == 24 && startsWith(k, e, 'cache_write_input_tokens')) return 3;
  return -1;
}

/**
 * Reads the flat object [p, e) as JSON.parse and tokensFromUsage would (rollout.ts: a count is a finite
 * number over 0, else 0; a repeated key's last value wins) into TOTAL; false when the host must parse it:
 * anything but keys of plain ASCII and number values without spaces, or a count that is not a whole number
 * of at most 15 digits.
 */
function readTotal(p: usize, e: usize): bool {
  for (let i: usize = 0; i < 4; i++) store<f64>(TOTAL + (i << 3), 0);
  if (e - p < 2 || load<u8>(p) != 0x7b || load<u8>(e - 1) != 0x7d) return false;
  let q = p + 1;
  if (q == e - 1) return true; // {}
  while (true) {
    if (load<u8>(q) != 0x22) return false;
    const k = q + 1;
    let ke = k;
    while (ke < e && <u32>load<u8>(ke) - 0x20 < 0x5f && load<u8>(ke) != 0x22 && load<u8>(ke) != 0x5c) ke++;
    if (ke >= e || load<u8>(ke) != 0x22 || ke + 1 >= e || load<u8>(ke + 1) != 0x3a) return false;
    const v = ke + 2;
    const ve = scanNumber(v, e);
    if (ve == 0) return false;
    const which = countKey(k, ke);
    if (which >= 0) {
      let x: f64 = 0;
      if (load<u8>(v) != 0x2d) {
        if (ve - v > 15) return false;
        for (let d = v; d < ve; d++) {
          const c = <u32>load<u8>(d) - 0x30;
          if (c > 9) return false; // a fraction or an exponent
          x = x * 10 + <f64>c;
        }
      }
      store<f64>(TOTAL + (<usize>which << 3), x);
    }
    if (ve == e - 1) return true;
    if (load<u8>(ve) != 0x2c) return false;
    q = ve + 1;
  }
  return false;
}
