/**
 * Where Muster puts a worktree: beside the repository, in `<repo-parent>/<repo-name>.worktrees/`, one
 * directory per branch named by the branch with `%` and `/` percent-encoded (`feature/x` →
 * `feature%2Fx`), so every branch has exactly one predictable place and no two branches share one.
 */
import { basename, dirname, join } from 'node:path';

/** The directory name of `branch`: `%` → `%25`, `/` → `%2F`; nothing else changes (git already refused the rest). */
export function escapeBranch(branch: string): string {
  return branch.replace(/%/g, '%25').replace(/\//g, '%2F');
}

/** The folder that holds every worktree Muster makes of the repository whose main checkout is `repoRoot`. */
export function worktreesHome(repoRoot: string): string {
  return join(dirname(repoRoot), `${basename(repoRoot)}.worktrees`);
}

/** Where the worktree of `branch` goes. */
export function worktreePath(repoRoot: string, branch: string): string {
  return join(worktreesHome(repoRoot), escapeBranch(branch));
}
