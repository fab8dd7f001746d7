/**
 * The text of a string a skeleton elided (skeleton.ts), decoded from its bytes in the line when it is
 * wanted after all (a tool's output for search), instead of parsing the whole line: only that string,
 * and of a long one only its first part, cut where no character or escape is split. The first part
 * decoded is a true prefix of the whole string's value.
 */
import { ELIDED, elidedSpan } from './skeleton.ts';
import type { ElidedRanges } from './skeleton.ts';

const BACKSLASH = 0x5c;
const LOWER_U = 0x75;

/**
 * A cut at byte `p` of the string text that starts at `lo` (just past its opening quote), moved back so
 * that it splits neither a UTF-8 sequence nor an escape.
 */
export function safeCut(line: Buffer, lo: number, p: number): number {
  let at = p;
  while (at > lo && ((line[at] as number) & 0xc0) === 0x80) at--; // a continuation byte: the character began before
  // Only the nearest backslash can begin an escape that crosses the cut (an escape holds no backslash after its first).
  for (let k = at - 1; k >= lo && k >= at - 6; k--) {
    if (line[k] !== BACKSLASH) continue;
    let j = k;
    while (j >= lo && line[j] === BACKSLASH) j--;
    if (((k - j) & 1) === 1 && k + (line[k + 1] === LOWER_U ? 6 : 2) > at) at = k; // k begins an escape the cut splits
    break;
  }
  return at;
}

/** The string whose JSON text (quotes included) is bytes [start, end) of `line`, or undefined when it is not one. */
function decodeWhole(line: Buffer, start: number, end: number): string | undefined {
  try {
    const v: unknown = JSON.parse(line.toString('utf8', start, end));
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Decodes the elided strings of one skeleton: `text(x)` is x itself for a string that was not elided,
 * the decoded value for an elided one (of a long one, a prefix of at least `minChars` characters that
 * holds at least `minTrimmed` once trimmed: whatever reads it no further than that sees what the whole
 * would show), and null for anything else. An elided string that does not decode (an escape broken in
 * what is read of it) sets `failed`, and the caller falls back to parsing the line whole; a break past
 * the part read of a long string is not looked for.
 */
export class ElidedText {
  failed = false;
  constructor(private readonly line: Buffer, private readonly ranges: ElidedRanges, private readonly minChars: number, private readonly minTrimmed = 32) {}

  readonly text = (x: unknown): string | null => {
    if (typeof x !== 'string') return null;
    if (!x.startsWith(ELIDED)) return x;
    const span = elidedSpan(x, this.ranges);
    if (span === undefined) {
      this.failed = true; // a string of the line may read like a sentinel, or one has no range: not ours to guess
      return null;
    }
    const v = this.decode(span[0], span[1]);
    if (v === undefined) this.failed = true;
    return v ?? null;
  };

  private decode(start: number, end: number): string | undefined {
    // A JSON string holds at least one character per 6 bytes; below twice the wanted length, read it whole.
    for (let take = 2 * this.minChars; start + 1 + take < end - 1; take *= 2) {
      const cut = safeCut(this.line, start + 1, start + 1 + take);
      let v: unknown;
      try {
        v = JSON.parse(`${this.line.toString('utf8', start, cut)}"`);
      } catch {
        return undefined;
      }
      if (typeof v !== 'string') return undefined;
      if (v.length >= this.minChars && v.trim().length >= this.minTrimmed) return v;
    }
    return decodeWhole(this.line, start, end);
  }
}
