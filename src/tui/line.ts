/**
 * One frame line from columns: each cell is fitted to its width and then styled, so the visible
 * width of the line is exactly the terminal's and escape codes never count against it.
 */
import { clean, fit, type Tone } from './ansi.ts';

export interface Cell {
  text: string;
  /** Columns; omitted on at most one cell, which takes what the others leave. */
  width?: number;
  tones?: Tone[];
}

export type Style = (text: string, ...tones: Tone[]) => string;

export function composeLine(cells: Cell[], columns: number, style: Style, lineTones: Tone[] = []): string {
  const fixed = cells.reduce((n, c) => n + (c.width ?? 0), 0);
  const flex = Math.max(0, columns - fixed);
  let used = 0;
  let out = '';
  for (const c of cells) {
    const w = Math.min(c.width ?? flex, columns - used);
    if (w <= 0) continue;
    out += style(fit(clean(c.text), w), ...lineTones, ...(c.tones ?? []));
    used += w;
  }
  if (used < columns) out += style(' '.repeat(columns - used), ...lineTones);
  return out;
}

/** A whole line of one text. */
export const textLine = (text: string, columns: number, style: Style, ...tones: Tone[]): string => composeLine([{ text, tones }], columns, style);
