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

/** A string timestamp that parses as a date, else null. */
export function asIsoTime(x: unknown): string | null {
  if (typeof x !== 'string' || x.length > 40) return null;
  const ms = Date.parse(x);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}
