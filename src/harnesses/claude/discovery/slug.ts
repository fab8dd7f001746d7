/**
 * Claude's project directory name for a cwd: every character that is not [A-Za-z0-9] becomes '-'
 * (`/home/dev/my_proj.v2 x` → `-home-dev-my-proj-v2-x`). Not reversible — the real cwd comes from
 * the records; this only locates a transcript from a known cwd.
 */
export function cwdToSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}
