/**
 * The baseline every cold-index figure is a ratio to: read each file whole and JSON.parse every line,
 * with nothing skipped and nothing kept. A source that parses everything can at best match it; one
 * that skips big records unparsed (as Muster's do) should beat it.
 */
import { readFileSync } from 'node:fs';

export interface BaselineResult {
  ms: number;
  bytes: number;
  lines: number;
}

export function parseEveryLine(paths: string[]): BaselineResult {
  const t0 = performance.now();
  let bytes = 0;
  let lines = 0;
  let sink = 0;
  for (const p of paths) {
    const text = readFileSync(p, 'utf8');
    bytes += Buffer.byteLength(text);
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (end > start) {
        const v = JSON.parse(text.slice(start, end)) as { type?: unknown };
        // Touch the result so the parse cannot be optimised away.
        if (typeof v.type === 'string') sink++;
        lines++;
      }
      start = end + 1;
    }
  }
  if (sink < 0) console.log(sink);
  return { ms: performance.now() - t0, bytes, lines };
}
