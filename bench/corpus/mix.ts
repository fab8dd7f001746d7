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
