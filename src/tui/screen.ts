/**
 * Paints frames: only the lines that changed since the last frame are rewritten, all in one write
 * wrapped in synchronized-output markers. With 500 sessions a status change touches one or two
 * lines, so the bytes sent stay small whatever the list size. `invalidate()` forces a full repaint
 * (resize, Ctrl-L, back from suspend).
 */
import { clearAll, clearEol, moveTo, syncEnd, syncStart } from './ansi.ts';

export interface Screen {
  paint(lines: string[]): void;
  invalidate(): void;
}

export function createScreen(write: (data: string) => void): Screen {
  let previous: string[] | null = null;
  return {
    paint(lines) {
      let out = '';
      if (previous === null) out += clearAll;
      for (let i = 0; i < lines.length; i++) {
        if (previous !== null && previous[i] === lines[i]) continue;
        out += `${moveTo(i + 1)}${lines[i]}${clearEol}`;
      }
      previous = lines.slice();
      if (out) write(`${syncStart}${out}${syncEnd}`);
    },
    invalidate() {
      previous = null;
    },
  };
}
