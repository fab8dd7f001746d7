/**
 * The skeleton of a large JSON line: the same record with every long string value (a tool's output, a
 * file's content) replaced by a sentinel, parsed. Finding where a string ends takes a jump to the next
 * '"' (Buffer.indexOf) and a look at the backslashes before it, so a 500 KB tool output is crossed in
 * a few hundred native searches and never decoded to a JavaScript string; only the small parts are
 * copied and handed to JSON.parse.
 *
 * What it guarantees: the skeleton of a valid JSON line is valid and equal to the line's parse with
 * the long strings replaced; a line whose skeleton does not parse is not valid JSON either. What it
 * does not check: the escapes inside an elided string (a line that is invalid only there passes).
 */
import { isUtf8 } from 'node:buffer';
import { utf8Text } from './byte-text.ts';

/** What an elided string reads as. No writer of transcripts produces it (it starts with U+0000). */
export const ELIDED = '\u0000elided';

const ELIDED_JSON = Buffer.from(JSON.stringify(ELIDED));
/** Numbered sentinels (`ELIDED` + n), made once each. */
const numbered: Buffer[] = [];
const numberedJson = (n: number): Buffer => (n < 1024 ? (numbered[n] ??= Buffer.from(JSON.stringify(ELIDED + n))) : Buffer.from(JSON.stringify(ELIDED + n)));

/** True for a value the skeleton elided (`ELIDED`, or `ELIDED` + its number when the ranges were asked for). */
export function isElided(x: unknown): boolean {
  return typeof x === 'string' && x.startsWith(ELIDED);
}

/** Where a skeleton's elided strings lie in its line. */
export interface ElidedRanges {
  /** String n's JSON text (quotes included) is bytes [spans[2n], spans[2n + 1]); it reads `ELIDED + n`. */
  spans: number[];
  /**
   * A string the skeleton kept starts with U+0000 (written `\u0000`: JSON has no other way), so it may
   * read like a sentinel: whoever decodes must not trust the numbers.
   */
  strayNul: boolean;
}

/** Ranges to pass to parseSkeleton (which resets them at each call). */
export const elidedRanges = (): ElidedRanges => ({ spans: [], strayNul: false });

/**
 * Where the elided string `x` lies in its line: [start, end) of its JSON text, quotes included; or
 * undefined when that cannot be told (a kept string may read like a sentinel, or `x` has no range).
 */
export function elidedSpan(x: string, ranges: ElidedRanges): [start: number, end: number] | undefined {
  if (ranges.strayNul || x.length === ELIDED.length) return undefined;
  const n = Number(x.slice(ELIDED.length));
  if (!Number.isInteger(n)) return undefined;
  const start = ranges.spans[2 * n];
  const end = ranges.spans[2 * n + 1];
  return start === undefined || end === undefined ? undefined : [start, end];
}

const NUL_ESCAPE = Buffer.from('"\\u0000');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index just past the '"' closing the string that opens at `open`, or -1 when it never closes. */
function stringEnd(line: Buffer, open: number): number {
  let q = open + 1;
  for (;;) {
    q = line.indexOf(QUOTE, q);
    if (q === -1) return -1;
    let k = q - 1;
    while (line[k] === BACKSLASH) k--;
    // An even run of backslashes escapes itself, not the quote.
    if (((q - 1 - k) & 1) === 0) return q + 1;
    q++;
  }
}

/**
 * The line's skeleton parsed (strings longer than `maxString` bytes, quotes included, read as
 * ELIDED), or undefined when the line is not valid UTF-8, not an object or array, or not valid JSON.
 * Given `ranges`, each elided string reads as `ELIDED + n` instead, and its place in the line is
 * recorded there (elided-text.ts decodes it when its text is wanted after all).
 */
export function parseSkeleton(line: Buffer, maxString: number, ranges?: ElidedRanges): unknown {
  if (ranges) {
    ranges.spans.length = 0;
    ranges.strayNul = false;
  }
  if (!isUtf8(line)) return undefined;
  const parts: Buffer[] = [];
  // A leading BOM is dropped, as the whole-line parse drops it.
  let from = line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf ? 3 : 0;
  let i = from;
  for (;;) {
    const open = line.indexOf(QUOTE, i);
    if (open === -1) break;
    const end = stringEnd(line, open);
    if (end === -1) return undefined;
    if (end - open > maxString) {
      if (ranges) {
        parts.push(line.subarray(from, open), numberedJson(ranges.spans.length >> 1));
        ranges.spans.push(open, end);
      } else parts.push(line.subarray(from, open), ELIDED_JSON);
      from = end;
    } else if (ranges && !ranges.strayNul && line[open + 1] === BACKSLASH && line.subarray(open, open + NUL_ESCAPE.length).equals(NUL_ESCAPE)) {
      ranges.strayNul = true;
    }
    i = end;
  }
  parts.push(line.subarray(from));
  const whole = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  const text = utf8Text(whole, 0, whole.length);
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
