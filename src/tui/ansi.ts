/**
 * Terminal text: escape sequences, a styler that honours NO_COLOR, and width-exact fitting.
 * Every frame line is fitted to the terminal width *before* styling, so a line never wraps (a wrap
 * would shift every following line and corrupt the frame). Untrusted text (titles, questions) is
 * stripped of control characters first: an agent must not be able to move our cursor.
 */

export const ESC = '\x1b[';
export const enterScreen = `${ESC}?1049h${ESC}?25l${ESC}?7l${ESC}2J`;
/**
 * Resets attributes, leaves the alternate screen, then re-enables autowrap and shows the cursor —
 * after the switch, because some terminals (tmux) keep cursor modes per screen.
 */
export const leaveScreen = `${ESC}0m${ESC}?1049l${ESC}?7h${ESC}?25h`;
/** Synchronized output (DEC 2026): terminals that know it paint a frame at once; others ignore it. */
export const syncStart = `${ESC}?2026h`;
export const syncEnd = `${ESC}?2026l`;
export const moveTo = (row: number, col = 1): string => `${ESC}${row};${col}H`;
export const clearEol = `${ESC}K`;
export const clearAll = `${ESC}2J`;

export type Tone = 'dim' | 'bold' | 'inverse' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan';

const SGR: Record<Tone, string> = { dim: '2', bold: '1', inverse: '7', red: '31', green: '32', yellow: '33', blue: '34', magenta: '35', cyan: '36' };
const COLORS = new Set<Tone>(['red', 'green', 'yellow', 'blue', 'magenta', 'cyan']);

/** Wraps text in SGR attributes; with `color` false (NO_COLOR) only bold/dim/inverse survive. */
export function createStyler(color: boolean): (text: string, ...tones: Tone[]) => string {
  return (text, ...tones) => {
    const codes = tones.filter((t) => color || !COLORS.has(t)).map((t) => SGR[t]);
    return codes.length === 0 || text === '' ? text : `${ESC}${codes.join(';')}m${text}${ESC}0m`;
  };
}

/** NO_COLOR (https://no-color.org): present and non-empty disables colour. */
export function colorEnabled(env: NodeJS.ProcessEnv): boolean {
  return !env.NO_COLOR && env.TERM !== 'dumb';
}

/** Replaces C0/C1 controls (ESC included) and line breaks with spaces. */
export function clean(s: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex -- removing terminal control characters is the point
  return (s ?? '').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

/** Display width of one code point: 0 for combining marks and zero-width, 2 for wide/emoji, else 1. */
export function codePointWidth(cp: number): number {
  if (cp === 0x200d || (cp >= 0x300 && cp <= 0x36f) || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0x200b && cp <= 0x200f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) return 2;
  return 1;
}

export function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += codePointWidth(ch.codePointAt(0) ?? 0);
  return w;
}

/** Cuts or pads `s` to exactly `width` columns; a cut ends in `…`. */
export function fit(s: string, width: number): string {
  if (width <= 0) return '';
  let w = 0;
  let out = '';
  const full = textWidth(s);
  const limit = full > width ? width - 1 : width;
  for (const ch of s) {
    const cw = codePointWidth(ch.codePointAt(0) ?? 0);
    if (w + cw > limit) break;
    out += ch;
    w += cw;
  }
  if (full > width) {
    out += '…';
    w += 1;
  }
  return out + ' '.repeat(Math.max(0, width - w));
}

/** Word-wraps plain text to `width` columns (hard-breaking words longer than a line). */
export function wrap(text: string, lineWidth: number): string[] {
  const width = Math.max(2, lineWidth); // a 1-column cut would be all ellipsis and never advance
  const out: string[] = [];
  for (const para of text.split(/\r?\n/)) {
    let line = '';
    for (const word of clean(para).split(' ')) {
      let w = word;
      while (textWidth(w) > width) {
        if (line) {
          out.push(line);
          line = '';
        }
        const head = fit(w, width).trimEnd();
        out.push(head.replace(/\u2026$/, ''));
        w = w.slice(head.replace(/\u2026$/, '').length);
      }
      const candidate = line ? `${line} ${w}` : w;
      if (textWidth(candidate) > width) {
        out.push(line);
        line = w;
      } else line = candidate;
    }
    out.push(line);
  }
  return out;
}
