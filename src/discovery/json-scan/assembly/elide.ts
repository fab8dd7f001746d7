// Claude's long lines as the JavaScript fold reads them: a line longer than WHOLE_LINE_BYTES is parsed as
// a skeleton (jsonl/skeleton.ts), whose long strings are elided unchecked. The loop (scan.ts) says when a
// line is one; json.ts then crosses its untracked long strings here, as the skeleton crosses them.
import { utf8Len } from './bytes';

/**
 * The JavaScript fold's skeleton (jsonl/skeleton.ts) of a line longer than 1,024 bytes reads a string
 * whose text is longer than this without looking inside: its end is the next quote after an even run of
 * backslashes, and only the line's UTF-8 is checked there.
 */
const ELIDE_BYTES: usize = 256;
/** Set by the loop for each line: its untracked strings may be crossed as the skeleton crosses them. */
let elideOn = false;
/** The last line scanned crossed such a string without checking all of it (set by crossElided). */
let elided = false;

/** Whether the next lines' untracked strings may be crossed as the skeleton crosses them. */
export function elideStrings(on: bool): void { elideOn = on; }
/** A line's scan begins: nothing crossed unchecked yet. */
export function startLine(): void { elided = false; }
/** Where an untracked string opening at p is crossed as the skeleton crosses it (never, unless the line is read as a skeleton). */
@inline export function elideAt(p: usize): usize { return elideOn ? p + ELIDE_BYTES : usize.MAX_VALUE; }
/** True when the last line scanned is clean only as the skeleton reads it: a long string was not checked whole. */
export function sawElided(): bool { return elided; }

/** True when the quote at q closes its string: an even run of backslashes (none, mostly) precedes it. */
@inline function closes(q: usize): bool {
  let k = q;
  while (load<u8>(k - 1) == 0x5c) k--; // the string's opening quote stops the walk
  return ((q - k) & 1) == 0;
}

/**
 * From q, a byte of a string that the skeleton elides (q past its start + ELIDE_BYTES) at which the
 * strict scan stopped: the index just past the string's closing quote as the skeleton finds it, or 0
 * when there is none in [q, e) or a byte is not UTF-8. Unless q is that quote, the rest is not checked
 * as JSON.parse would check it, and `elided` is set.
 */
export function crossElided(q: usize, e: usize): usize {
  if (load<u8>(q) == 0x22 && closes(q)) return q + 1;
  elided = true;
  const quote = i8x16.splat(0x22);
  while (q < e) {
    // The next quote or byte over 0x7f, 16 bytes at a time (the padding past e: refused below).
    const v = v128.load(q);
    const m = i8x16.bitmask(i8x16.eq(v, quote)) | i8x16.bitmask(v);
    if (m == 0) {
      q += 16;
      continue;
    }
    q += <usize>ctz<i32>(m);
    if (q >= e) return 0;
    if (load<u8>(q) == 0x22) {
      if (closes(q)) return q + 1;
      q++;
    } else {
      const n = utf8Len(q, e);
      if (n == 0) return 0;
      q += n;
    }
  }
  return 0;
}
