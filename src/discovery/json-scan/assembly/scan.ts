// AssemblyScript, compiled to WebAssembly by scripts/build-wasm.mjs (not TypeScript: tsc and eslint skip
// this folder). The line loop of a JSONL chunk: lines are split on '\n' (a CRLF's '\r' dropped), blank
// lines skipped, Claude's ignored heads counted, and every other line validated as JSON in one pass that
// also notes where the values of a few tracked keys lie (layout.ts describes the memory the host shares).
//
// A line is "clean" when it is one JSON object that JSON.parse accepts (after a UTF-8 BOM is dropped),
// valid UTF-8 throughout, no key of a tracked object written with an escape, and nested at most
// MAX_DEPTH deep. For a clean line, each tracked node's value is where the last occurrence of its key
// put it (JSON.parse's rule for a repeated key). Anything else goes back to the host to read as before.

// Memory layout (bytes); kept in step with layout.ts.
const NODE_COUNT: usize = 1024; // i32: tracked nodes (node 0: the line's object)
const TABLE: usize = 1028; // per node, 16 bytes: parent, key offset, key length, last node of its subtree
const TYPES: usize = 6144; // i32 count, then per type 8 bytes: offset, length of its name
const OUT: usize = 8192; // per node, 16 bytes: kind, start, end (relative to INPUT), string flags
const STACK: usize = 16384; // per depth, 16 bytes: node, is array, start
const INPUT: usize = 65536; // the chunk (the module's own constants lie below it, from 49152)
const MAX_DEPTH: i32 = 1000;

// next()'s answers
const NEED_MORE: i32 = 0; // no complete line left in the chunk
const CLEAN: i32 = 1; // a clean line of a fast type: OUT holds its tracked values
const OTHER: i32 = 2; // any other line: the host reads it
const OVERSIZE: i32 = 3; // a line longer than maxLine

// value kinds
const K_STRING: i32 = 1;
const K_NUMBER: i32 = 2;
const K_TRUE: i32 = 3;
const K_FALSE: i32 = 4;
const K_NULL: i32 = 5;
const K_OBJECT: i32 = 6;
const K_ARRAY: i32 = 7;
// string flags
const F_ESCAPE: i32 = 1;
const F_NONASCII: i32 = 2;

let chunkLen: usize = 0;
let cursor: usize = 0;
let maxLine: usize = 0;
let headMode: i32 = 0;
let lineStart: usize = 0;
let lineEnd: usize = 0;
let typeIndex: i32 = -1;
let ignored: i32 = 0;
let asciiEscape: i32 = 0;
let strFlags: i32 = 0;

/** A new chunk of `len` bytes at INPUT; lines longer than `max` are OVERSIZE; `mode` 1 skips Claude's ignored heads. */
export function setChunk(len: i32, max: i32, mode: i32): void {
  chunkLen = <usize>len;
  cursor = 0;
  maxLine = <usize>max;
  headMode = mode;
}
/** Bytes of the chunk handed over so far (the start of its unfinished line). */
export function consumed(): i32 { return <i32>cursor; }
export function start(): i32 { return <i32>lineStart; }
export function end(): i32 { return <i32>lineEnd; }
/** Of the fast types, which one the clean line is. */
export function typeOf(): i32 { return typeIndex; }
/** Lines skipped by their head since the last call (the counter restarts). */
export function takeIgnored(): i32 { const n = ignored; ignored = 0; return n; }
/** True when the clean line has a \u escape of a printable ASCII character (text that may hide a word). */
export function sawAsciiEscape(): i32 { return asciiEscape; }

@inline function isWs(c: u32): bool { return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d; }

@inline function skipWs(p: usize, e: usize): usize {
  while (p < e && isWs(<u32>load<u8>(p))) p++;
  return p;
}

@inline function isHex(c: u32): bool { return c - 0x30 < 10 || (c | 0x20) - 0x61 < 6; }
@inline function hexVal(c: u32): u32 { return c - 0x30 < 10 ? c - 0x30 : (c | 0x20) - 0x61 + 10; }
@inline function isCont(p: usize, e: usize): bool { return p < e && (<u32>load<u8>(p) & 0xc0) == 0x80; }

/** Length of the UTF-8 sequence at p (lead byte >= 0x80), or 0 when it is not valid UTF-8. */
function utf8Len(p: usize, e: usize): usize {
  const c = <u32>load<u8>(p);
  if (c >= 0xc2 && c <= 0xdf) return isCont(p + 1, e) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!isCont(p + 1, e) || !isCont(p + 2, e)) return 0;
    const c1 = <u32>load<u8>(p + 1);
    if (c == 0xe0 && c1 < 0xa0) return 0; // overlong
    if (c == 0xed && c1 > 0x9f) return 0; // a surrogate
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!isCont(p + 1, e) || !isCont(p + 2, e) || !isCont(p + 3, e)) return 0;
    const c1 = <u32>load<u8>(p + 1);
    if (c == 0xf0 && c1 < 0x90) return 0; // overlong
    if (c == 0xf4 && c1 > 0x8f) return 0; // past U+10FFFF
    return 4;
  }
  return 0;
}

/** p at an opening quote: the index just past its closing quote, or 0 when the string is not valid. Sets strFlags. */
function scanString(p: usize, e: usize): usize {
  strFlags = 0;
  const quote = i8x16.splat(0x22);
  const backslash = i8x16.splat(0x5c);
  const space = i8x16.splat(0x20);
  let q = p + 1;
  while (q < e) {
    // 16 bytes at a time: the memory past a chunk is padding, and a stop past e is refused below. A byte
    // that needs a look is a quote, a backslash, a control character or a byte over 0x7f.
    const v = v128.load(q);
    const stop = v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.lt_u(v, space));
    const m = i8x16.bitmask(stop) | i8x16.bitmask(v);
    if (m == 0) {
      q += 16;
      continue;
    }
    q += <usize>ctz<i32>(m);
    if (q >= e) return 0;
    const c = <u32>load<u8>(q);
    if (c == 0x22) return q + 1;
    if (c == 0x5c) {
      strFlags |= F_ESCAPE;
      if (q + 1 >= e) return 0;
      const d = <u32>load<u8>(q + 1);
      if (d == 0x75) {
        if (q + 5 >= e) return 0;
        let cp: u32 = 0;
        for (let k: usize = 2; k < 6; k++) {
          const h = <u32>load<u8>(q + k);
          if (!isHex(h)) return 0;
          cp = (cp << 4) | hexVal(h);
        }
        if (cp >= 0x20 && cp <= 0x7e) asciiEscape = 1;
        q += 6;
      } else if (d == 0x22 || d == 0x5c || d == 0x2f || d == 0x62 || d == 0x66 || d == 0x6e || d == 0x72 || d == 0x74) {
        q += 2;
      } else return 0;
      continue;
    }
    if (c < 0x20) return 0; // a raw control character
    const n = utf8Len(q, e);
    if (n == 0) return 0;
    strFlags |= F_NONASCII;
    q += n;
  }
  return 0;
}

/** p at a number's first byte: the index just past it, or 0 when it is not a JSON number. */
function scanNumber(p: usize, e: usize): usize {
  let q = p;
  if (load<u8>(q) == 0x2d) q++;
  if (q >= e) return 0;
  const c = <u32>load<u8>(q);
  if (c == 0x30) q++;
  else if (c - 0x31 < 9) {
    q++;
    while (q < e && <u32>load<u8>(q) - 0x30 < 10) q++;
  } else return 0;
  if (q < e && load<u8>(q) == 0x2e) {
    q++;
    const digits = q;
    while (q < e && <u32>load<u8>(q) - 0x30 < 10) q++;
    if (q == digits) return 0;
  }
  if (q < e && (<u32>load<u8>(q) | 0x20) == 0x65) {
    q++;
    if (q < e && (load<u8>(q) == 0x2b || load<u8>(q) == 0x2d)) q++;
    const digits = q;
    while (q < e && <u32>load<u8>(q) - 0x30 < 10) q++;
    if (q == digits) return 0;
  }
  return q;
}

/** True when the bytes at p are `word` (up to 5 bytes, given as a little-endian u64 and its length). */
@inline function isWord(p: usize, e: usize, word: u64, n: usize): bool {
  if (p + n > e) return false;
  for (let i: usize = 0; i < n; i++) if (<u64>load<u8>(p + i) != ((word >> (i << 3)) & 0xff)) return false;
  return true;
}

@inline function sameBytes(a: usize, b: usize, n: usize): bool {
  for (let i: usize = 0; i < n; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
  return true;
}

/** The tracked child of `parent` named by the key bytes [k0, k1), or -1. */
function childOf(parent: i32, k0: usize, k1: usize): i32 {
  const n = load<i32>(NODE_COUNT);
  const len = <i32>(k1 - k0);
  for (let i = 1; i < n; i++) {
    const t = TABLE + (<usize>i << 4);
    if (load<i32>(t) != parent || load<i32>(t + 8) != len) continue;
    if (sameBytes(<usize>load<i32>(t + 4), k0, <usize>len)) return i;
  }
  return -1;
}

@inline function setOut(node: i32, kind: i32, from: usize, to: usize, flags: i32): void {
  const o = OUT + (<usize>node << 4);
  store<i32>(o, kind);
  store<i32>(o + 4, <i32>(from - INPUT));
  store<i32>(o + 8, <i32>(to - INPUT));
  store<i32>(o + 12, flags);
}

/** Forgets the values of `node` and every node under it (a repeated key replaces the whole value). */
function clearSubtree(node: i32): void {
  const last = load<i32>(TABLE + (<usize>node << 4) + 12);
  for (let i = node; i <= last; i++) store<i32>(OUT + (<usize>i << 4), 0);
}

/**
 * p at a key's opening quote inside an object tracked as `owner` (or -1): the key is read, then its ':'.
 * Returns the position of the value (0: not clean), with the value's node in `keyNode`.
 */
let keyNode: i32 = -1;
function readKey(p: usize, e: usize, owner: i32): usize {
  if (p >= e || load<u8>(p) != 0x22) return 0;
  const k = scanString(p, e);
  if (k == 0) return 0;
  let child: i32 = -1;
  if (owner >= 0) {
    if (strFlags & F_ESCAPE) return 0; // a key spelt with escapes is not compared: the host reads the line
    child = childOf(owner, p + 1, k - 1);
  }
  let q = skipWs(k, e);
  if (q >= e || load<u8>(q) != 0x3a) return 0;
  q = skipWs(q + 1, e);
  if (child >= 0) clearSubtree(child);
  keyNode = child;
  return q;
}

/** Validates the line [p, e) and fills OUT; true when it is clean. */
function scanLine(p: usize, e: usize): bool {
  asciiEscape = 0;
  if (e - p >= 3 && load<u8>(p) == 0xef && load<u8>(p + 1) == 0xbb && load<u8>(p + 2) == 0xbf) p += 3;
  p = skipWs(p, e);
  if (p >= e || load<u8>(p) != 0x7b) return false;
  clearSubtree(0);
  let depth: i32 = -1;
  let node: i32 = 0; // tracked node of the value at p, or -1
  while (true) {
    if (p >= e) return false;
    const c = <u32>load<u8>(p);
    const valueStart = p;
    if (c == 0x7b || c == 0x5b) {
      const isArray: i32 = c == 0x5b ? 1 : 0;
      p = skipWs(p + 1, e);
      if (p >= e) return false;
      if (<u32>load<u8>(p) == (isArray ? 0x5d : 0x7d)) {
        p++;
        if (node >= 0) setOut(node, isArray ? K_ARRAY : K_OBJECT, valueStart, p, 0);
      } else {
        depth++;
        if (depth >= MAX_DEPTH) return false;
        const sp = STACK + (<usize>depth << 4);
        store<i32>(sp, node);
        store<i32>(sp + 4, isArray);
        store<i32>(sp + 8, <i32>(valueStart - INPUT));
        if (isArray) {
          node = -1; // elements are not tracked
          continue;
        }
        p = readKey(p, e, node);
        if (p == 0) return false;
        node = keyNode;
        continue;
      }
    } else if (c == 0x22) {
      const q = scanString(p, e);
      if (q == 0) return false;
      if (node >= 0) setOut(node, K_STRING, p, q, strFlags);
      p = q;
    } else if (c == 0x2d || c - 0x30 < 10) {
      const q = scanNumber(p, e);
      if (q == 0) return false;
      if (node >= 0) setOut(node, K_NUMBER, p, q, 0);
      p = q;
    } else if (c == 0x74) {
      if (!isWord(p, e, 0x65757274, 4)) return false; // true
      if (node >= 0) setOut(node, K_TRUE, p, p + 4, 0);
      p += 4;
    } else if (c == 0x66) {
      if (!isWord(p, e, 0x65736c6166, 5)) return false; // false
      if (node >= 0) setOut(node, K_FALSE, p, p + 5, 0);
      p += 5;
    } else if (c == 0x6e) {
      if (!isWord(p, e, 0x6c6c756e, 4)) return false; // null
      if (node >= 0) setOut(node, K_NULL, p, p + 4, 0);
      p += 4;
    } else return false;
    // After a value: a comma, or the end of its containers.
    while (true) {
      p = skipWs(p, e);
      if (depth < 0) return p == e;
      if (p >= e) return false;
      const sp = STACK + (<usize>depth << 4);
      const isArray = load<i32>(sp + 4);
      const ch = <u32>load<u8>(p);
      if (ch == 0x2c) {
        p = skipWs(p + 1, e);
        if (isArray) {
          node = -1;
          break;
        }
        p = readKey(p, e, load<i32>(sp));
        if (p == 0) return false;
        node = keyNode;
        break;
      }
      if (ch != (isArray ? 0x5d : 0x7d)) return false;
      p++;
      const owner = load<i32>(sp);
      if (owner >= 0) setOut(owner, isArray ? K_ARRAY : K_OBJECT, <usize>load<i32>(sp + 8) + INPUT, p, 0);
      depth--;
    }
  }
  return false;
}

/** The index of the fast type the tracked node 1 names (a plain string), or -1. */
function fastType(): i32 {
  const o = OUT + 16;
  if (load<i32>(o) != K_STRING || load<i32>(o + 12) != 0) return -1;
  const from = INPUT + <usize>load<i32>(o + 4) + 1;
  const len = <i32>(load<i32>(o + 8) - load<i32>(o + 4) - 2);
  const n = load<i32>(TYPES);
  for (let i = 0; i < n; i++) {
    const t = TYPES + 4 + (<usize>i << 3);
    if (load<i32>(t + 4) == len && sameBytes(<usize>load<i32>(t), from, <usize>len)) return i;
  }
  return -1;
}

// Claude Code's heads of records Muster never shows (transcript-lines.ts, isIgnoredLine, says the same).
const HEAD_WINDOW: usize = 512;

/** `what` (ASCII, given as a string literal's bytes) at p, within e. */
function startsWith(p: usize, e: usize, what: string): bool {
  const n = <usize>what.length;
  if (p + n > e) return false;
  for (let i: usize = 0; i < n; i++) if (<u32>load<u8>(p + i) != <u32>what.charCodeAt(<i32>i)) return false;
  return true;
}

function claudeIgnored(p: usize, e: usize): bool {
  if (startsWith(p, e, '{"type":"')) {
    const t = p + 9;
    return startsWith(t, e, 'api-request') || startsWith(t, e, 'file-history-') || startsWith(t, e, 'tools-used"') ||
      startsWith(t, e, 'mode"') || startsWith(t, e, 'permission-mode"') || startsWith(t, e, 'atis-latch"');
  }
  if (!startsWith(p, e, '{"parentUuid":')) return false;
  let at = p + 14;
  if (startsWith(at, e, 'null')) at += 4;
  else if (at < e && load<u8>(at) == 0x22) {
    let close = at + 1;
    while (close < e && load<u8>(close) != 0x22) close++;
    if (close >= e || close - p >= HEAD_WINDOW) return false;
    at = close + 1;
  } else return false;
  if (!startsWith(at, e, ',"isSidechain":')) return false;
  at += 15;
  if (startsWith(at, e, 'true')) at += 4;
  else if (startsWith(at, e, 'false')) at += 5;
  else return false;
  return at + 14 - p <= HEAD_WINDOW && startsWith(at, e, ',"attachment":');
}

/** The next '\n' in [p, e), or e. */
function newline(p: usize, e: usize): usize {
  const nl = i8x16.splat(0x0a);
  while (p + 16 <= e) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(p), nl));
    if (m != 0) return p + <usize>ctz<i32>(m);
    p += 16;
  }
  while (p < e && load<u8>(p) != 0x0a) p++;
  return p;
}

@inline function isBlank(p: usize, e: usize): bool {
  for (let q = p; q < e; q++) {
    const c = <u32>load<u8>(q);
    if (c != 0x20 && c != 0x09 && c != 0x0d) return false;
  }
  return true;
}

/** The next line of the chunk the host must see (see the answers above); ignored and blank lines are passed over. */
export function next(): i32 {
  const e = INPUT + chunkLen;
  while (true) {
    const p = INPUT + cursor;
    const nl = newline(p, e);
    if (nl >= e) return NEED_MORE;
    let stop = nl;
    if (stop > p && load<u8>(stop - 1) == 0x0d) stop--;
    cursor = nl + 1 - INPUT;
    lineStart = p - INPUT;
    lineEnd = stop - INPUT;
    if (stop - p > maxLine) return OVERSIZE;
    if (isBlank(p, stop)) continue;
    if (headMode == 1 && claudeIgnored(p, stop)) {
      ignored++;
      continue;
    }
    if (!scanLine(p, stop)) return OTHER;
    typeIndex = fastType();
    return typeIndex < 0 ? OTHER : CLEAN;
  }
  return NEED_MORE;
}

const NEEDLE: usize = 45056; // the bytes `holds` looks for (the host writes them), up to 256

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
