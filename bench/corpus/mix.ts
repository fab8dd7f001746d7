import { closeSync, openSync, writeSync } from 'node:fs';

/** What a generator produced: the files, their totals, and the bytes per line class (printed as the mix). */
export interface CorpusFile {
  path: string;
  bytes: number;
  lines: number;
}

export interface GeneratedCorpus {
  /** The harness home the corpus was written into. */
  root: string;
  files: CorpusFile[];
  bytes: number;
  lines: number;
  /** Bytes per line class, e.g. { ignored, parsed }. */
  mix: Record<string, number>;
}

export function emptyMix(): Record<string, number> {
  return {};
}

export function addBytes(mix: Record<string, number>, kind: string, n: number): void {
  mix[kind] = (mix[kind] ?? 0) + n;
}

/** "ignored 61.2% · parsed 38.8%" */
export function describeMix(mix: Record<string, number>): string {
  const total = Object.values(mix).reduce((a, b) => a + b, 0) || 1;
  return Object.entries(mix).sort().map(([k, v]) => `${k} ${((100 * v) / total).toFixed(1)}%`).join(' · ');
}

/**
 * Writes one generated file turn by turn until it holds `target` bytes: `turn(n)` appends lines to
 * `ctx.parts` (and counts them in `ctx`), written out every 256 lines. Lines already in `ctx.parts` (a
 * header) are written first. Returns the file as the corpus lists it.
 */
export function writeByTurns(path: string, ctx: { parts: string[]; bytes: number; lines: number }, target: number, turn: (n: number) => void): CorpusFile {
  const fd = openSync(path, 'w');
  try {
    for (let n = 1; ctx.bytes < target; n++) {
      turn(n);
      if (ctx.parts.length > 256) { writeSync(fd, ctx.parts.join('')); ctx.parts = []; }
    }
    writeSync(fd, ctx.parts.join(''));
  } finally {
    closeSync(fd);
  }
  return { path, bytes: ctx.bytes, lines: ctx.lines };
}

/** The corpus of `files` written under `root`, with their totals. */
export function corpusOf(root: string, files: CorpusFile[], mix: Record<string, number>): GeneratedCorpus {
  return { root, files, bytes: files.reduce((a, f) => a + f.bytes, 0), lines: files.reduce((a, f) => a + f.lines, 0), mix };
}
