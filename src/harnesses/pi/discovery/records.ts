/**
 * Narrow, total accessors for records of pi/omp session files (JSONL version 3). The files are
 * another program's output: every field may be missing or of the wrong type, so nothing here throws.
 */
export type Obj = Record<string, unknown>;

export function asObj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A non-negative finite count, else 0 (token counts from a foreign file). */
export function count(v: unknown): number {
  const n = num(v);
  return n !== undefined && n >= 0 ? n : 0;
}

/** The ISO timestamp of a record, when it has a parseable one. */
export function isoTime(v: unknown): string | undefined {
  const s = str(v);
  return s !== undefined && Number.isFinite(Date.parse(s)) ? s : undefined;
}

/** The later of two ISO times (either may be absent). */
export function laterIso(a: string | null, b: string | undefined): string | null {
  if (b === undefined) return a;
  if (a === null) return b;
  return Date.parse(b) >= Date.parse(a) ? b : a;
}

/** Text of a message's `content` (a string, or an array of `{type:'text', text}` parts). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const p of content) {
    const o = asObj(p);
    if (o && o['type'] === 'text' && typeof o['text'] === 'string') parts.push(o['text']);
  }
  return parts.join('\n');
}

/** One line, whitespace collapsed, at most `max` characters (titles and reasons on the board). */
export function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
