/** Checks of operator-typed names and emoji, and pack ids derived from names. */
import { MusterError } from '../errors/index.ts';

// Control characters are exactly what this rejects.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A display name: trimmed, 1..60 characters, no control characters. */
export function checkName(v: unknown, what: string): string {
  const name = typeof v === 'string' ? v.trim() : '';
  if (name.length === 0 || name.length > 60 || CONTROL.test(name)) {
    throw new MusterError('invalid_argument', `${what} must be 1 to 60 characters without control characters`);
  }
  return name;
}

/** An emoji (or a couple of them): 1..8 code points, no letters, digits, spaces or control characters. */
export function checkEmoji(v: unknown): string {
  const e = typeof v === 'string' ? v.trim() : '';
  const points = [...e];
  if (points.length === 0 || points.length > 8 || CONTROL.test(e) || /[\sA-Za-z0-9<>&"']/.test(e)) {
    throw new MusterError('invalid_argument', 'emoji must be an emoji (1 to 8 code points, no letters or spaces)');
  }
  return e;
}

export const PACK_ID = /^[a-z0-9-]{1,40}$/;
export const CHARACTER_ID = /^[a-z0-9-]{1,60}$/;

/** A pack id from its name: lowercase ASCII words joined by '-', made unique with a suffix. */
export function packIdFor(name: string, taken: (id: string) => boolean): string {
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32) || 'pack';
  if (!taken(base)) return base;
  for (let n = 2; ; n++) if (!taken(`${base}-${n}`)) return `${base}-${n}`;
}

/** A string argument that must match `re`; 400 otherwise. */
export function checkId(v: unknown, re: RegExp, what: string): string {
  if (typeof v !== 'string' || !re.test(v)) throw new MusterError('invalid_argument', `${what} is missing or malformed`);
  return v;
}
