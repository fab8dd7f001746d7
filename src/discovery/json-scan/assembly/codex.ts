// Codex rollout lines by their first bytes, as rollout-lines.ts reads them (its headVerdict, timestampOf
// and callIdOf, and token-lines.ts's readTokenLine, say the same in TypeScript): a head is the first 640
// bytes, the record's type is the first `,"type":"` in it, and the big records Muster never shows are
// passed over from there, with the time they carry kept as the latest (MAXTS).
import { INPUT, MAXTS, SPANS } from './layout';
import { hasNonAscii, indexOf, startsWith } from './bytes';

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
  const n = end - start;
  const held = load<i32>(MAXTS);
  if (held >= 0) {
    const m = <usize>held;
    let i: usize = 0;
    while (i < n && i < m && load<u8>(start + i) == load<u8>(MAXTS + 4 + i)) i++;
    const later = i < n && (i == m || load<u8>(start + i) > load<u8>(MAXTS + 4 + i));
    if (!later) return true;
  }
  memory.copy(MAXTS + 4, start, n);
  store<i32>(MAXTS, <i32>n);
  return true;
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
  return true;
}
