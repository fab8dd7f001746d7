/**
 * Prefixed, time-sortable ids: `<prefix>_` + 10 characters of millisecond time +
 * 16 random ones, Crockford base32 — they sort by creation time and cannot be guessed. Web Crypto
 * keeps this free of OS modules, so domain folders may use it.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newPrefixedId(prefix: string, nowMs: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  for (const b of globalThis.crypto.getRandomValues(new Uint8Array(16))) rand += ALPHABET[b % 32];
  return `${prefix}_${time}${rand}`;
}

/** An anchored check of a prefixed id (anything else is refused before it reaches the store). */
export function prefixedIdPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`);
}
