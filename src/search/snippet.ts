/** FTS5 snippets (matches between \u0001 and \u0002) as one line of plain text with mark ranges. */
import type { SearchHit } from './types.ts';

const OPEN = '\u0001';
const CLOSE = '\u0002';

export function markSnippet(raw: string): Pick<SearchHit, 'snippet' | 'marks'> {
  let out = '';
  const marks: Array<[number, number]> = [];
  let start = -1;
  let opening = false;
  let space = false;
  for (const ch of raw) {
    if (ch === OPEN) {
      opening = true;
      continue;
    }
    if (ch === CLOSE) {
      if (start >= 0 && out.length > start) marks.push([start, out.length]);
      start = -1;
      continue;
    }
    // One line: runs of whitespace become one space.
    if (/\s/.test(ch)) {
      space = out.length > 0;
      continue;
    }
    if (space) {
      out += ' ';
      space = false;
    }
    // The mark starts at its first character, after any space that separates it from what precedes.
    if (opening) {
      start = out.length;
      opening = false;
    }
    out += ch;
  }
  return { snippet: out, marks };
}
