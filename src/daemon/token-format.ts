/**
 * What a board token looks like. Kept free of imports: the hook client and the generated
 * pi/omp extension and OpenCode plugin check a token file with the same rule as the daemon.
 */

/**
 * base64url of at least 32 characters (the daemon writes 43: 32 random bytes). An empty, short or
 * otherwise malformed token file is never a token: the daemon replaces it, clients ignore it.
 */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,256}$/;

export function isWellFormedToken(t: string): boolean {
  return TOKEN_PATTERN.test(t);
}
