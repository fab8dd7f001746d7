// Byte helpers over the module's memory: every range is [p, e), and nothing is read at or past e except
// by the 16-byte loads, which the padding after a chunk allows.

@inline export function isWs(c: u32): bool { return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d; }

@inline export function skipWs(p: usize, e: usize): usize {
  while (p < e && isWs(<u32>load<u8>(p))) p++;
  return p;
}

@inline export function sameBytes(a: usize, b: usize, n: usize): bool {
  for (let i: usize = 0; i < n; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
  return true;
}

/** True when the bytes at p, within e, are `what` (an ASCII literal). */
export function startsWith(p: usize, e: usize, what: string): bool {
  const n = <usize>what.length;
  if (p + n > e) return false;
  for (let i: usize = 0; i < n; i++) if (<u32>load<u8>(p + i) != <u32>what.charCodeAt(<i32>i)) return false;
  return true;
}

/** Where `what` (an ASCII literal of 2 bytes or more) first lies whole in [p, e), or -1. */
export function indexOf(p: usize, e: usize, what: string): isize {
  const n = <usize>what.length;
  if (p + n > e) return -1;
  const last = e - n; // the last place it may start
  const first = i8x16.splat(<u8>what.charCodeAt(0));
  const second = i8x16.splat(<u8>what.charCodeAt(1));
  // Where the first two bytes match, 16 places at a time (the loads may read past e: padding); each is then compared whole.
  for (let q = p; q <= last; q += 16) {
    let m = i8x16.bitmask(v128.and(i8x16.eq(v128.load(q), first), i8x16.eq(v128.load(q + 1), second)));
    while (m != 0) {
      const at = q + <usize>ctz<i32>(m);
      if (at > last) return -1;
      if (startsWith(at, e, what)) return <isize>at;
      m &= m - 1;
    }
  }
  return -1;
}

/** True when the 4 or 5 bytes at p are `word`, given as a little-endian u64 of `n` bytes. */
@inline export function isWord(p: usize, e: usize, word: u64, n: usize): bool {
  if (p + n > e) return false;
  for (let i: usize = 0; i < n; i++) if (<u64>load<u8>(p + i) != ((word >> (i << 3)) & 0xff)) return false;
  return true;
}

/** The next '\n' in [p, e), or e. */
export function newline(p: usize, e: usize): usize {
  const nl = i8x16.splat(0x0a);
  // 64 bytes a turn while none is a newline (most of a long line), then 16 at a time to the one found.
  while (p + 64 <= e) {
    const a = v128.or(i8x16.eq(v128.load(p), nl), i8x16.eq(v128.load(p + 16), nl));
    const b = v128.or(i8x16.eq(v128.load(p + 32), nl), i8x16.eq(v128.load(p + 48), nl));
    if (v128.any_true(v128.or(a, b))) break;
    p += 64;
  }
  while (p + 16 <= e) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(p), nl));
    if (m != 0) return p + <usize>ctz<i32>(m);
    p += 16;
  }
  while (p < e && load<u8>(p) != 0x0a) p++;
  return p;
}

/** Only spaces, tabs and CRs (what the JSONL readers call a blank line). */
@inline export function isBlank(p: usize, e: usize): bool {
  for (let q = p; q < e; q++) {
    const c = <u32>load<u8>(q);
    if (c != 0x20 && c != 0x09 && c != 0x0d) return false;
  }
  return true;
}

/** True when a byte of [p, e) is over 0x7f. */
export function hasNonAscii(p: usize, e: usize): bool {
  for (let q = p; q < e; q++) if (load<u8>(q) >= 0x80) return true;
  return false;
}

@inline function isCont(p: usize, e: usize): bool { return p < e && (<u32>load<u8>(p) & 0xc0) == 0x80; }

/** Length of the UTF-8 sequence at p (lead byte >= 0x80), or 0 when it is not valid UTF-8. */
export function utf8Len(p: usize, e: usize): usize {
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
