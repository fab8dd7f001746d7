// JSON validation of one line, in one pass, noting where the values of the tracked keys lie (OUT).
// A line is "clean" when it is one JSON object that JSON.parse accepts (after a UTF-8 BOM is dropped),
// valid UTF-8 throughout, no key of a tracked object written with an escape, and nested at most
// MAX_DEPTH deep. For a clean line, each tracked node's value is where the last occurrence of its key
// put it (JSON.parse's rule for a repeated key). Of a line the loop reads as the JavaScript fold's skeleton
// would (elide.ts), an untracked long string is checked only as the skeleton checks it (sawElided says so).
import { F_ESCAPE, F_NONASCII, INPUT, KEY_BUCKETS, KEY_HASH, KEY_NEXT, K_ARRAY, K_FALSE, K_NULL, K_NUMBER, K_OBJECT, K_STRING, K_TRUE, MAX_DEPTH, OUT, STACK, TABLE, TYPES } from './layout';
import { isWord, sameBytes, skipWs, utf8Len } from './bytes';
import { crossElided, elideAt, startLine } from './elide';

let asciiEscape: i32 = 0;
let strFlags: i32 = 0;

/** True when the last line scanned spells a printable ASCII character as a \u escape (text it may hide). */
export function sawAsciiEscape(): i32 { return asciiEscape; }

@inline function isHex(c: u32): bool { return c - 0x30 < 10 || (c | 0x20) - 0x61 < 6; }
@inline function hexVal(c: u32): u32 { return c - 0x30 < 10 ? c - 0x30 : (c | 0x20) - 0x61 + 10; }
/**
 * p at an opening quote: the index just past its closing quote, or 0 when the string is not valid. Sets
 * strFlags. From `elideAt` on (a string the skeleton elides), it is crossed as the skeleton crosses it.
 */
export function scanString(p: usize, e: usize, elideAt: usize = usize.MAX_VALUE): usize {
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
    if (q >= elideAt) return crossElided(q, e);
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
export function scanNumber(p: usize, e: usize): usize {
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

/** The bucket of a key of `len` bytes at k0 under `parent` (tables.ts's keyHash says the same). */
@inline function keyHash(parent: i32, k0: usize, len: i32): usize {
  const first = len > 0 ? <i32>load<u8>(k0) : 0;
  const last = len > 0 ? <i32>load<u8>(k0 + <usize>len - 1) : 0;
  return <usize>(parent * 37 + len * 11 + first * 7 + last) & (KEY_BUCKETS - 1);
}

/** The tracked child of `parent` named by the key bytes [k0, k1), or -1: looked up in its bucket. */
function childOf(parent: i32, k0: usize, k1: usize): i32 {
  const len = <i32>(k1 - k0);
  let i = <i32>load<u8>(KEY_HASH + keyHash(parent, k0, len));
  while (i != 0) {
    const t = TABLE + (<usize>i << 4);
    if (load<i32>(t) == parent && load<i32>(t + 8) == len && sameBytes(<usize>load<i32>(t + 4), k0, <usize>len)) return i;
    i = <i32>load<u8>(KEY_NEXT + <usize>i);
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

/** The node of the value readKey reached (-1: not tracked). */
let keyNode: i32 = -1;

/**
 * p at a key's opening quote inside an object tracked as `owner` (or -1): the key is read, then its ':'.
 * Returns the position of the value (0: not clean), with the value's node in `keyNode`.
 */
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
export function scanLine(p: usize, e: usize): bool {
  asciiEscape = 0;
  startLine();
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
      // An untracked string of a long line may be crossed as the skeleton crosses it (the loop says when).
      const q = scanString(p, e, node < 0 ? elideAt(p) : usize.MAX_VALUE);
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
export function fastType(): i32 {
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

