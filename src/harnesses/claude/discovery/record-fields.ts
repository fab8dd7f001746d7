/**
 * Narrowing helpers for records of Claude Code's files: everything on disk is `unknown` until a
 * field is checked, so a record of an unexpected shape is ignored instead of throwing.
 */
export type Json = Record<string, unknown>;

export function asObject(x: unknown): Json | null {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Json) : null;
}

export function asString(x: unknown): string | null {
  return typeof x === 'string' ? x : null;
}

/** A finite non-negative number, else 0 (token counts). */
export function asCount(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0;
}

export function asNumber(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

/** A string timestamp that parses as a date, as an ISO time (UTC, milliseconds), else null. */
export function asIsoTime(x: unknown): string | null {
  if (typeof x !== 'string' || x.length > 40) return null;
  // Every record carries one, nearly always already canonical: skip the Date round trip (1 µs each).
  if (isCanonicalIso(x)) return x;
  const ms = Date.parse(x);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digits(x: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = x.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * True when `x` is `YYYY-MM-DDTHH:MM:SS.sssZ` naming a real instant, i.e. exactly what
 * `new Date(Date.parse(x)).toISOString()` gives back (Date.parse rolls a 30 February or a 24:00 over
 * into the next day; those take the slow path).
 */
export function isCanonicalIso(x: string): boolean {
  if (x.length !== 24 || x[4] !== '-' || x[7] !== '-' || x[10] !== 'T' || x[13] !== ':' || x[16] !== ':' || x[19] !== '.' || x[23] !== 'Z') return false;
  const year = digits(x, 0, 4);
  const month = digits(x, 5, 2);
  const day = digits(x, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || digits(x, 20, 3) < 0) return false;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (DAYS[month - 1] as number) + (leap ? 1 : 0)) return false;
  const h = digits(x, 11, 2);
  const m = digits(x, 14, 2);
  const s = digits(x, 17, 2);
  return h >= 0 && h <= 23 && m >= 0 && m <= 59 && s >= 0 && s <= 59;
}
