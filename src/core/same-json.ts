/**
 * Whether JSON.stringify would write two values alike, up to the order of keys, without building
 * either string. The hub compares every session of a listing with the one it knew: a safety rescan
 * of a long history compares thousands, and two strings per session were most of its diff's time and
 * garbage. Walks plain data (what a Session is); a value with its own toJSON is compared by its JSON.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (hasToJson(a) || hasToJson(b)) return JSON.stringify(a) === JSON.stringify(b);
  // JSON writes NaN and the infinities as null.
  if (typeof a === 'number' && !Number.isFinite(a)) return b === null || (typeof b === 'number' && !Number.isFinite(b));
  if (typeof b === 'number' && !Number.isFinite(b)) return a === null;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) return sameArrays(a as unknown[], b as unknown[]);
  return sameObjects(a as Record<string, unknown>, b as Record<string, unknown>);
}

/** JSON leaves out a key whose value is one of these (and writes null for it in an array). */
const unwritten = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

const hasToJson = (v: unknown): boolean => typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function';

function sameArrays(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = unwritten(a[i]) ? null : a[i];
    const y = unwritten(b[i]) ? null : b[i];
    if (!sameJson(x, y)) return false;
  }
  return true;
}

function sameObjects(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let written = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key) || unwritten(a[key])) continue;
    if (!Object.hasOwn(b, key) || !sameJson(a[key], b[key])) return false;
    written++;
  }
  for (const key in b) if (Object.hasOwn(b, key) && !unwritten(b[key])) written--;
  return written === 0;
}
