/**
 * Repo root and branch of a directory by reading git's own files — no `git` child per session
 * (a board refresh may ask for dozens of cwds).
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readRegularText } from '../regular-file/index.ts';

export interface GitInfo {
  /** The work tree root (the directory holding `.git`), null outside any repository. */
  repoRoot: string | null;
  /** Checked-out branch short name; 'HEAD' when detached; null when unknown or outside a repo. */
  branch: string | null;
}

/** The file-system reads git detection needs; tests may pass their own. */
export interface GitFsOperations {
  /** 'dir', 'file', or null when the path does not exist or cannot be stat'ed. Default: fs.statSync. */
  kind(path: string): 'dir' | 'file' | null;
  /**
   * File text, or null when unreadable. Default: readRegularText (a regular file of at most 64 KiB,
   * opened non-blocking: a FIFO or device named `.git` or `HEAD` in some cwd is never waited on).
   */
  readText(path: string): string | null;
}

/** `.git` files and HEAD are one line; a ref name is at most a few hundred bytes. */
const MAX_GIT_FILE_BYTES = 64 * 1024;

export const realGitFs: GitFsOperations = {
  kind(path) {
    try {
      // Most directories on the way up hold no .git: an answer of "none" without building an error.
      const st = statSync(path, { throwIfNoEntry: false });
      return st === undefined ? null : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : null;
    } catch {
      return null; // EACCES, ENOTDIR, a loop
    }
  },
  readText(path) {
    try {
      return readRegularText(path, MAX_GIT_FILE_BYTES);
    } catch {
      return null;
    }
  },
};

const NONE: GitInfo = { repoRoot: null, branch: null };
// Walking is bounded even for pathological paths (symlink loops are not followed: we walk the string).
const MAX_DEPTH = 256;

/**
 * Walks up from `cwd` to the first directory holding `.git` — a directory, or a `gitdir: <path>`
 * file as worktrees and submodules use — and reads HEAD there. Never throws.
 */
export function readGitInfo(cwd: string, fsOps: GitFsOperations = realGitFs): GitInfo {
  let dir = resolve(cwd);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const dotGit = join(dir, '.git');
    const kind = fsOps.kind(dotGit);
    if (kind === 'dir') return { repoRoot: dir, branch: readBranch(dotGit, fsOps) };
    if (kind === 'file') {
      const gitDir = parseGitFile(fsOps.readText(dotGit), dir);
      // A broken gitfile still marks the work tree root; git itself would refuse, so no branch.
      return { repoRoot: dir, branch: gitDir ? readBranch(gitDir, fsOps) : null };
    }
    const parent = dirname(dir);
    if (parent === dir) return NONE;
    dir = parent;
  }
  return NONE;
}

/** `gitdir: <path>` (relative to the directory holding the file) → absolute git dir. */
function parseGitFile(text: string | null, dir: string): string | null {
  const m = text === null ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!m?.[1]) return null;
  return isAbsolute(m[1]) ? m[1] : resolve(dir, m[1]);
}

/** HEAD is `ref: refs/heads/<branch>` on a branch (born or unborn) or a bare object id when detached. */
function readBranch(gitDir: string, fsOps: GitFsOperations): string | null {
  const head = fsOps.readText(join(gitDir, 'HEAD'))?.trim();
  if (!head) return null;
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  // Repos using the reftable backend keep a placeholder HEAD; the real one is in binary tables.
  if (ref === 'refs/heads/.invalid') return null;
  if (ref) return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(head) ? 'HEAD' : null;
}
