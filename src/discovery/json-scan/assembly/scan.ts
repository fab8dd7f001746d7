// AssemblyScript, compiled to WebAssembly by scripts/build-wasm.mjs (not TypeScript: tsc and eslint skip
// this folder). The line loop of a JSONL chunk: lines are split on '\n' (a CRLF's '\r' dropped), blank
// lines skipped, a harness's records Muster never shows passed over by their heads (claude.ts, codex.ts),
// Codex's token lines found by their layout, and every other line validated as JSON in one pass that
// notes where a few tracked keys' values lie (json.ts); Claude's clean records are folded into a summary
// here where they can be (claude-summary.ts), and Codex's tool calls paired with their outputs
// (codex-calls.ts). layout.ts is the memory shared with the host.
import { INPUT, MAXTS, NEEDLE, OUT, SPANS } from './layout';
import { isBlank, newline, sameBytes } from './bytes';
import { fastType, sawAsciiEscape as sawEscape, scanLine } from './json';
import { elideStrings, sawElided } from './elide';
import { claudeIgnored } from './claude';
import { foldClaudeRecord, summaryOn } from './claude-summary';
import { CLOSE as CODEX_CLOSE, IGNORE as CODEX_IGNORE, codexTokenLine, codexVerdict, noteTime, tokenSettled } from './codex';
import { FLUSH, HOLD, PASS, closes, dropHeld, event as heldEvent, held, heldEnd, heldStart, resetHeld, responseItem } from './codex-calls';

// next()'s answers
const NEED_MORE: i32 = 0; // no complete line left in the chunk
const CLEAN: i32 = 1; // a clean line of a fast type: OUT holds its tracked values
const OTHER: i32 = 2; // any other line: the host reads it
const OVERSIZE: i32 = 3; // a line longer than maxLine
const TOKEN: i32 = 4; // a Codex token line: SPANS holds its total's object and its time
const CLOSED: i32 = 5; // a Codex tool output passed over: SPANS holds the id of the call it closes

const CLAUDE: i32 = 1;
/** Claude's lines longer than this are read as skeletons by the JavaScript fold (transcript-lines.ts WHOLE_LINE_BYTES). */
const WHOLE_LINE: usize = 1024;
const CODEX: i32 = 2;
// Codex's fast types, as rollout-fast.ts lists them.
const CODEX_RESPONSE_ITEM: i32 = 0;
const CODEX_EVENT: i32 = 2;
// setFlags: Codex's first prompt is read; the host's pending calls are empty (codex-calls.ts).
const PROMPT_KNOWN: i32 = 1;
const PENDING_EMPTY: i32 = 2;

let chunkLen: usize = 0;
let cursor: usize = 0;
let maxLine: usize = 0;
let headMode: i32 = 0;
let flags: i32 = 0;
let lineStart: usize = 0;
let lineEnd: usize = 0;
let typeIndex: i32 = -1;
let ignored: i32 = 0;
/** The held Codex calls are being handed over (the next to hand over, and where to go on after). */
let replaying = false;
let replayAt: i32 = 0;
let resumeAt: usize = 0;

/** Hands over the held calls, then goes on from the line at `at` (relative to INPUT), which is read again. */
function flush(at: usize): i32 {
  replaying = true;
  replayAt = 0;
  resumeAt = at;
  return next();
}

/** A line the host must see: after the held calls, if any. */
@inline function toHost(p: usize, r: i32): i32 {
  return headMode == CODEX && held() > 0 ? flush(p - INPUT) : r;
}

/** A new chunk of `len` bytes at INPUT; lines longer than `max` are OVERSIZE; `mode`: 1 Claude's heads, 2 Codex's. */
export function setChunk(len: i32, max: i32, mode: i32): void {
  chunkLen = <usize>len;
  cursor = 0;
  maxLine = <usize>max;
  headMode = mode;
}
/** What the host knows that the lines depend on (PROMPT_KNOWN, PENDING_EMPTY below); kept until changed. */
export function setFlags(f: i32): void { flags = f; }
/** Forgets the latest time of the lines passed over, and any call held (a new file). */
export function resetTime(): void {
  store<i32>(MAXTS, -1);
  resetHeld();
  replaying = false;
}
export { takePaired } from './codex-calls';
/** Bytes of the chunk handed over so far (the start of its unfinished line). */
export function consumed(): i32 { return <i32>cursor; }
export function start(): i32 { return <i32>lineStart; }
export function end(): i32 { return <i32>lineEnd; }
/** Of the fast types, which one the clean line is. */
export function typeOf(): i32 { return typeIndex; }
/** Lines passed over by their head since the last call (the counter restarts). */
export function takeIgnored(): i32 { const n = ignored; ignored = 0; return n; }
/** True when the clean line spells a printable ASCII character as a \u escape (text it may hide). */
export function sawAsciiEscape(): i32 { return sawEscape(); }
export { setSummary, takeSummary } from './claude-summary';

/** The next line of the chunk the host must see (see the answers above); ignored and blank lines are passed over. */
export function next(): i32 {
  if (replaying) {
    if (replayAt < held()) {
      // A held call, scanned again so OUT holds its fields.
      lineStart = heldStart(replayAt);
      lineEnd = heldEnd(replayAt);
      replayAt++;
      elideStrings(false); // (a Codex line: checked whole, as it was when held)
      scanLine(INPUT + lineStart, INPUT + lineEnd);
      typeIndex = fastType();
      return CLEAN;
    }
    dropHeld();
    replaying = false;
    cursor = resumeAt;
  }
  const e = INPUT + chunkLen;
  while (true) {
    const p = INPUT + cursor;
    const nl = newline(p, e);
    if (nl >= e) return toHost(p, NEED_MORE); // the chunk is given up: nothing may stay held
    let stop = nl;
    if (stop > p && load<u8>(stop - 1) == 0x0d) stop--;
    cursor = nl + 1 - INPUT;
    lineStart = p - INPUT;
    lineEnd = stop - INPUT;
    if (stop - p > maxLine) return toHost(p, OVERSIZE);
    if (isBlank(p, stop)) continue;
    if (headMode == CLAUDE && claudeIgnored(p, stop)) {
      ignored++;
      continue;
    }
    if (headMode == CODEX) {
      const verdict = codexVerdict(p, stop, (flags & PROMPT_KNOWN) != 0);
      if (verdict != 0 && !noteTime(p, stop)) return toHost(p, OTHER);
      if (verdict == CODEX_IGNORE) {
        ignored++;
        continue;
      }
      if (verdict == CODEX_CLOSE) {
        const id = INPUT + <usize>load<i32>(SPANS);
        if (!closes(id, INPUT + <usize>load<i32>(SPANS + 4) - id)) return CLOSED;
        ignored++; // it closed a held call: both are only counted
        continue;
      }
      // A token line the host parses whole may hold any record: the held calls go first.
      if (codexTokenLine(p, stop)) return held() > 0 && !tokenSettled() ? flush(p - INPUT) : TOKEN;
    }
    // Claude's first pass: the untracked strings of a line the JavaScript fold reads as a skeleton (over
    // WHOLE_LINE bytes) may be crossed as the skeleton crosses them; such a line is then clean only for
    // the records the module folds here as the skeleton's fold would, and any other goes to the host.
    const skeleton = headMode == CLAUDE && summaryOn() && stop - p > WHOLE_LINE;
    elideStrings(skeleton);
    if (!scanLine(p, stop)) return toHost(p, OTHER);
    typeIndex = fastType();
    if (typeIndex < 0) return toHost(p, OTHER);
    // Claude's first pass: a record the module can fold is folded here (claude-summary.ts).
    if (headMode == CLAUDE && summaryOn() && foldClaudeRecord(typeIndex, sawEscape() != 0, sawElided())) continue;
    if (skeleton && sawElided()) return OTHER;
    if (headMode == CODEX) {
      // Codex's tool calls, held until their outputs close them (codex-calls.ts).
      const v = typeIndex == CODEX_RESPONSE_ITEM ? responseItem(p, stop, (flags & PENDING_EMPTY) != 0) : typeIndex == CODEX_EVENT ? heldEvent() : PASS;
      if (v == HOLD) continue;
      if (v == FLUSH) return flush(p - INPUT);
    }
    return CLEAN;
  }
  return NEED_MORE;
}

/** True when the bytes of `node`'s value in the clean line hold the `len` bytes at NEEDLE (len >= 2). */
export function holds(node: i32, len: i32): i32 {
  const o = OUT + (<usize>node << 4);
  if (load<i32>(o) == 0) return 0;
  const from = INPUT + <usize>load<i32>(o + 4);
  const to = INPUT + <usize>load<i32>(o + 8);
  const n = <usize>len;
  if (to - from < n) return 0;
  const last = to - n; // the last place the needle may start
  const first = i8x16.splat(load<u8>(NEEDLE));
  const second = i8x16.splat(load<u8>(NEEDLE + 1));
  let p = from;
  while (p <= last) {
    // Where the first two bytes match, 16 places at a time; each is then compared whole.
    let m = i8x16.bitmask(v128.and(i8x16.eq(v128.load(p), first), i8x16.eq(v128.load(p + 1), second)));
    while (m != 0) {
      const at = p + <usize>ctz<i32>(m);
      if (at > last) return 0;
      if (sameBytes(at, NEEDLE, n)) return 1;
      m &= m - 1;
    }
    p += 16;
  }
  return 0;
}
