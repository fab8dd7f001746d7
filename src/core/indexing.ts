/**
 * The cold index's figure as every client shows it: the board, the TUI, `muster ls` and
 * `muster status` all say "indexed 312 / 800 transcripts" while a first start reads a long history.
 */

/** Totals over the sources' cold indexes (the hub's figure, as GET /api/sessions and /api/status carry it). */
export interface IndexingFigure {
  /** True while some source is still reading. */
  active: boolean;
  done: number;
  total: number;
  bytesDone: number;
  bytesTotal: number;
  /**
   * Usage records and messages read and not yet written to the store (GET /api/status only): after a
   * first start's reading they are written over a few seconds, and a search finds each once written.
   */
  writing?: number;
  /**
   * Transcripts a cold index read whose messages and usage records the store has not got yet (GET
   * /api/status only): once the listing is complete they are read again for both, and a search or a
   * usage report finds each once it is in.
   */
  searching?: number;
}

/** "indexed 312 / 800 transcripts" while a cold index reads, else null. Data off the wire is checked. */
export function indexingLabel(x: unknown): string | null {
  if (typeof x !== 'object' || x === null) return null;
  const f = x as Partial<IndexingFigure>;
  if (f.active !== true || typeof f.done !== 'number' || typeof f.total !== 'number') return null;
  return `indexed ${f.done} / ${f.total} transcripts`;
}
