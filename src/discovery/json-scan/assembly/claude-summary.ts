// A clean Claude record folded into the summary here, as applyRecord folds it (transcript.ts,
// transcript-usage.ts): assistant, system and user records whose fields are plain (each field a string
// without escapes, or not a string at all; the time canonical, as asIsoTime keeps it; the token counts
// whole numbers of at most 15 digits), and prompt and cost records (claude-meta.ts). Anything else, and a
// user record the host must read whole (the first prompt unknown, or a message that may hold a PR link),
// goes back to the host, which first takes what the module folded (SUMMARY: deltas, the first and last
// strings seen, the latest times), so records are applied in their order. The recent message ids (the
// repeats' counts) are the module's while it folds (claude-usage.ts); the host writes them in and reads
// them back (../claude-summary.ts).
import {
  CWD_CAP, D_ASSISTANT_AT, D_BRANCH, D_COPIED, D_CWD, D_FIRST_AT, D_LAST_AT, D_MODEL, D_RECENT, D_ROOT,
  D_SESSION, F_ESCAPE, K_NUMBER, K_OBJECT, K_STRING, NAME_CAP, SUMMARY, S_ASSISTANT_AT, S_BRANCH, S_CAP,
  S_COPIED, S_COSTS, S_CWD, S_DIRTY, S_FIRST_AT, S_LAST_AT, S_MODEL, S_MODELS_N, S_RECENT_OFF, S_RECORDS,
  S_ROOT, S_SESSION, S_TOKENS, S_UNKEYED, S_UNKNOWN,
} from './layout';
import { indexOf, sameBytes, startsWith } from './bytes';
import { countUsage, dirty, mark, modelSlot } from './claude-usage';
import { BACK as COST_BACK, QUEUE, costVerdict, foldCost, foldPrompt, promptFoldable } from './claude-meta';
import { flags, from, kind, textAt, textLen, to } from './out';

// The nodes, as transcript-fast.ts's PATHS number them, and its fast types.
const N_TIMESTAMP: i32 = 2;
const N_SESSION: i32 = 3;
const N_CWD: i32 = 4;
const N_BRANCH: i32 = 5;
const N_REQUEST: i32 = 6;
const N_REQUEST_SESSION: i32 = 7;
const N_MESSAGE: i32 = 8;
const N_MODEL: i32 = 9;
const N_ID: i32 = 10;
const N_USAGE: i32 = 11;
const N_INPUT: i32 = 12;
const T_ASSISTANT: i32 = 0;
const T_USER: i32 = 2;
const T_LAST_PROMPT: i32 = 3;
const T_COST: i32 = 4;
/** The longest string (without its quotes) the skeleton keeps: its text is at most 256 bytes (skeleton.ts). */
const ELIDED_TEXT: i32 = 254;

// What a string field is: not a string; a plain string the module holds; one the host must read.
const NOT_STRING: i32 = 0;
const PLAIN: i32 = 1;
const BACK: i32 = 2;

/** The name 'unknown' (a model's when a message names none), kept in the summary's scratch. */
const UNKNOWN: usize = SUMMARY + S_UNKNOWN;

let folding = false;
let promptKnown = false;

/** Bit 0: fold Claude's clean records here; bit 1: the summary's first prompt is known. */
export function setSummary(f: i32): void {
  folding = (f & 1) != 0;
  promptKnown = (f & 2) != 0;
  if (folding) for (let i = 0; i < 7; i++) store<u8>(UNKNOWN + <usize>i, <u8>'unknown'.charCodeAt(i));
}

/** True while the module folds the clean records it can. */
export function summaryOn(): bool { return folding; }

/** The host took what was folded: the deltas start again (the recent messages, and whether they changed, stay). */
export function takeSummary(): void {
  store<i32>(SUMMARY + S_DIRTY, dirty() & D_RECENT);
  store<i32>(SUMMARY + S_RECORDS, 0);
  store<i32>(SUMMARY + S_UNKEYED, 0);
  store<i32>(SUMMARY + S_MODELS_N, 0);
  store<i32>(SUMMARY + S_COSTS, 0);
  for (let i: usize = 0; i < 4; i++) store<f64>(SUMMARY + S_TOKENS + (i << 3), 0);
}

function stringField(node: i32, cap: i32): i32 {
  if (kind(node) != K_STRING) return NOT_STRING;
  if ((flags(node) & F_ESCAPE) != 0 || textLen(node) > cap) return BACK;
  return PLAIN;
}

function digits(p: usize, n: usize): i32 {
  let v: i32 = 0;
  for (let i: usize = 0; i < n; i++) {
    const d = <u32>load<u8>(p + i) - 0x30;
    if (d > 9) return -1;
    v = v * 10 + <i32>d;
  }
  return v;
}

/** True when the 24 bytes at p are `YYYY-MM-DDTHH:MM:SS.sssZ` naming a real instant (record-fields.ts, isCanonicalIso). */
function canonicalTime(p: usize, len: i32): bool {
  if (len != 24 || load<u8>(p + 4) != 0x2d || load<u8>(p + 7) != 0x2d || load<u8>(p + 10) != 0x54 || load<u8>(p + 13) != 0x3a ||
    load<u8>(p + 16) != 0x3a || load<u8>(p + 19) != 0x2e || load<u8>(p + 23) != 0x5a) return false;
  const year = digits(p, 4);
  const month = digits(p + 5, 2);
  const day = digits(p + 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || digits(p + 20, 3) < 0) return false;
  const leap = month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  const days = month == 2 ? 28 : month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
  if (day > days + (leap ? 1 : 0)) return false;
  const h = digits(p + 11, 2);
  const m = digits(p + 14, 2);
  const s = digits(p + 17, 2);
  return h >= 0 && h <= 23 && m >= 0 && m <= 59 && s >= 0 && s <= 59;
}

/** Compares the 24 bytes at a and b as strings compare. */
function compareTime(a: usize, b: usize): i32 {
  for (let i: usize = 0; i < 24; i++) {
    const x = <i32>load<u8>(a + i);
    const y = <i32>load<u8>(b + i);
    if (x != y) return x - y;
  }
  return 0;
}

/** A token count as asCount reads it (a finite number over 0, else 0), or -1 when the host must read it. */
function count(node: i32): f64 {
  const k = kind(node);
  if (k != K_NUMBER) return 0;
  const p = from(node);
  const n = <i32>(to(node) - p);
  if (load<u8>(p) == 0x2d) return 0; // negative, or -0
  if (n > 15) return -1;
  let v: f64 = 0;
  for (let i = 0; i < n; i++) {
    const d = <u32>load<u8>(p + <usize>i) - 0x30;
    if (d > 9) return -1; // a fraction or an exponent
    v = v * 10 + <f64>d;
  }
  return v;
}

/** Copies the node's string into the slot at `slot` (i32 length, then the bytes). */
function keep(slot: usize, node: i32): void {
  const n = textLen(node);
  store<i32>(SUMMARY + slot, n);
  memory.copy(SUMMARY + slot + 4, textAt(node), <usize>n);
}

function noteTime(t: usize): void {
  if ((dirty() & D_FIRST_AT) == 0 || compareTime(t, SUMMARY + S_FIRST_AT) < 0) {
    memory.copy(SUMMARY + S_FIRST_AT, t, 24);
    mark(D_FIRST_AT);
  }
  if ((dirty() & D_LAST_AT) == 0 || compareTime(t, SUMMARY + S_LAST_AT) > 0) {
    memory.copy(SUMMARY + S_LAST_AT, t, 24);
    mark(D_LAST_AT);
  }
}

/** A record folded: counted, and its time kept. */
function countRecord(hasTime: bool): void {
  store<i32>(SUMMARY + S_RECORDS, load<i32>(SUMMARY + S_RECORDS) + 1);
  if (hasTime) noteTime(textAt(N_TIMESTAMP));
}

function noteConversation(session: i32, cwd: i32, branch: i32): void {
  if (session == PLAIN && (dirty() & D_SESSION) == 0) {
    keep(S_SESSION, N_SESSION);
    mark(D_SESSION);
  }
  if (cwd == PLAIN && textLen(N_CWD) > 0) {
    keep(S_CWD, N_CWD);
    mark(D_CWD);
  }
  if (branch == PLAIN && textLen(N_BRANCH) > 0) {
    keep(S_BRANCH, N_BRANCH);
    mark(D_BRANCH);
  }
}

// The record's token counts, once read.
let c0: f64 = 0;
let c1: f64 = 0;
let c2: f64 = 0;
let c3: f64 = 0;

/** A string the skeleton elides (its text over 256 bytes): the skeleton's fold then reads the line whole. */
@inline function elidable(node: i32): bool { return kind(node) == K_STRING && textLen(node) > ELIDED_TEXT; }

/**
 * Folds the clean record of fast type `type` (OUT holds its fields) into SUMMARY, as applyRecord would;
 * false, with nothing changed, when the host must apply it. `asciiEscape`: the line spells a printable
 * ASCII character with a \u escape. `elided`: the line is clean as the skeleton reads it (a long string
 * was crossed unchecked), so only the records the skeleton's fold applies as they are
 * (transcript-lines.ts, skeletonSuffices) are folded: assistant, system and user records none of whose
 * fields it reads is elided (the cwd and an assistant's request id checked here; the caps of the others
 * are lower).
 */
export function foldClaudeRecord(type: i32, asciiEscape: bool, elided: bool): bool {
  if (type > T_COST) return false;
  if (elided && (type == T_LAST_PROMPT || type == T_COST || elidable(N_CWD) || (type == T_ASSISTANT && elidable(N_REQUEST)))) return false;
  // Everything is checked first: a record goes back to the host untouched.
  let hasTime = false;
  if (kind(N_TIMESTAMP) == K_STRING) {
    if (stringField(N_TIMESTAMP, 24) != PLAIN || !canonicalTime(textAt(N_TIMESTAMP), textLen(N_TIMESTAMP))) return false;
    hasTime = true;
  }
  if (type == T_LAST_PROMPT) {
    if (!promptFoldable()) return false;
    countRecord(hasTime);
    foldPrompt();
    return true;
  }
  if (type == T_COST) {
    const verdict = costVerdict();
    if (verdict == COST_BACK) return false;
    countRecord(hasTime);
    if (verdict == QUEUE) foldCost();
    return true;
  }
  const session = stringField(N_SESSION, S_CAP);
  const cwd = stringField(N_CWD, CWD_CAP);
  const branch = stringField(N_BRANCH, S_CAP);
  if (session == BACK || cwd == BACK || branch == BACK) return false;
  if (type == T_USER) {
    // Read whole by the host while the first prompt is unknown, or when its message may hold a PR link.
    if (!promptKnown || asciiEscape) return false;
    if (kind(N_MESSAGE) != 0 && indexOf(from(N_MESSAGE), to(N_MESSAGE), 'hub.com') >= 0) return false;
  }
  let message = false;
  let model = NOT_STRING;
  let requestSession = NOT_STRING;
  let request = NOT_STRING;
  let synthetic = false;
  let keyed = false;
  let slot: i32 = -1;
  let name: usize = UNKNOWN;
  let nameLen: i32 = 7;
  if (type == T_ASSISTANT) {
    requestSession = stringField(N_REQUEST_SESSION, S_CAP);
    if (requestSession == BACK) return false;
    message = kind(N_MESSAGE) == K_OBJECT;
    if (message) {
      model = stringField(N_MODEL, NAME_CAP);
      const id = stringField(N_ID, NAME_CAP);
      request = stringField(N_REQUEST, S_CAP);
      if (model == BACK || id == BACK || request == BACK) return false;
      synthetic = model == PLAIN && textLen(N_MODEL) == 11 && startsWith(textAt(N_MODEL), textAt(N_MODEL) + 11, '<synthetic>');
      if (!synthetic) {
        c0 = 0;
        c1 = 0;
        c2 = 0;
        c3 = 0;
        if (kind(N_USAGE) == K_OBJECT) {
          c0 = count(N_INPUT);
          c1 = count(N_INPUT + 1);
          c2 = count(N_INPUT + 2);
          c3 = count(N_INPUT + 3);
          if (c0 < 0 || c1 < 0 || c2 < 0 || c3 < 0) return false;
        }
        keyed = id == PLAIN && textLen(N_ID) > 0;
        if (keyed && load<i32>(SUMMARY + S_RECENT_OFF) != 0) return false;
        if (model == PLAIN) {
          name = textAt(N_MODEL);
          nameLen = textLen(N_MODEL);
        }
        slot = modelSlot(name, nameLen); // the last check: a new model's slot is the fold's first change
        if (slot < 0) return false;
      }
    }
  }

  countRecord(hasTime);
  noteConversation(session, cwd, branch);
  if (!message) return true;
  if (model == PLAIN && textLen(N_MODEL) > 0 && !synthetic) {
    keep(S_MODEL, N_MODEL);
    mark(D_MODEL);
  }
  if (!synthetic) {
    countUsage(slot, textAt(N_ID), keyed ? textLen(N_ID) : 0, name, nameLen, c0, c1, c2, c3);
    if (!keyed) store<i32>(SUMMARY + S_UNKEYED, load<i32>(SUMMARY + S_UNKEYED) + 1);
    else if ((dirty() & D_ROOT) == 0) {
      // The message key (messageKey): the id, ':', the request id or nothing.
      const n = textLen(N_ID);
      const rn = request == PLAIN ? textLen(N_REQUEST) : 0;
      memory.copy(SUMMARY + S_ROOT + 4, textAt(N_ID), <usize>n);
      store<u8>(SUMMARY + S_ROOT + 4 + <usize>n, 0x3a);
      if (rn > 0) memory.copy(SUMMARY + S_ROOT + 5 + <usize>n, textAt(N_REQUEST), <usize>rn);
      store<i32>(SUMMARY + S_ROOT, n + 1 + rn);
      mark(D_ROOT);
    }
  }
  const copied = requestSession == PLAIN && textLen(N_REQUEST_SESSION) > 0 &&
    !(session == PLAIN && textLen(N_SESSION) == textLen(N_REQUEST_SESSION) && sameBytes(textAt(N_SESSION), textAt(N_REQUEST_SESSION), <usize>textLen(N_SESSION)));
  if (copied) {
    keep(S_COPIED, N_REQUEST_SESSION);
    mark(D_COPIED);
  }
  const t = textAt(N_TIMESTAMP);
  if (hasTime && ((dirty() & D_ASSISTANT_AT) == 0 || compareTime(t, SUMMARY + S_ASSISTANT_AT) > 0)) {
    memory.copy(SUMMARY + S_ASSISTANT_AT, t, 24);
    mark(D_ASSISTANT_AT);
  }
  return true;
}
