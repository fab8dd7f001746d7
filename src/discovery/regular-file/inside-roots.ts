/**
 * Symbolic links in a harness home are followed only when they lead back inside it: sources find
 * files by name in another program's directory, and a link placed there (to /etc/passwd, to another
 * user's files) must never be read as the harness's own. Only entries already known to be links are
 * resolved, so an ordinary file costs no extra system call.
 */
import fs from 'node:fs';
import path from 'node:path';

function within(p: string, root: string): boolean {
  const r = root.endsWith(path.sep) ? root : root + path.sep;
  return p === root || p.startsWith(r);
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

/**
 * True when `p`, resolved through every link, lies inside one of `roots` (each taken both as given
 * and resolved, so a home that is itself a link still contains its files). A dangling link or a loop
 * is not inside.
 */
export function resolvesInside(p: string, roots: readonly string[]): boolean {
  let real: string;
  try {
    real = fs.realpathSync.native(p);
  } catch {
    return false;
  }
  return roots.some((root) => within(real, path.resolve(root)) || within(real, realOrSelf(root)));
}

/** The diagnostics line for a link that was not followed. */
export function outsideMessage(p: string): string {
  return `symbolic link leads outside the harness home, not followed: ${p}`;
}
