/**
 * Goal ids: `gol_` + 10 characters of millisecond time + 16 random ones (Crockford base32), so ids
 * sort by creation time and cannot be guessed. Web Crypto keeps this free of OS modules.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GOAL_ID = /^gol_[0-9A-HJKMNP-TV-Z]{26}$/;

export function newGoalId(nowMs: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  for (const b of globalThis.crypto.getRandomValues(new Uint8Array(16))) rand += ALPHABET[b % 32];
  return `gol_${time}${rand}`;
}

export function isGoalId(id: unknown): id is string {
  return typeof id === 'string' && GOAL_ID.test(id);
}
