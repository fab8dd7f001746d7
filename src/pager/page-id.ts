/**
 * Page ids: `pag_` + 10 characters of millisecond time + 16 random ones, Crockford base32, so ids
 * sort by creation time (STYLE habit 8) and cannot be guessed. Web Crypto keeps this OS-module free.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PAGE_ID = /^pag_[0-9A-HJKMNP-TV-Z]{26}$/;

export function newPageId(nowMs: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  let rand = '';
  for (const b of bytes) rand += ALPHABET[b % 32];
  return `pag_${time}${rand}`;
}

/** True for a well-formed page id (anchored; refuses anything else before it reaches the store). */
export function isPageId(id: unknown): id is string {
  return typeof id === 'string' && PAGE_ID.test(id);
}
