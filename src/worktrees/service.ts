/**
 * Worktrees for new sessions: `create` makes a git worktree of the repository holding a directory,
 * for a new branch (from that directory's HEAD) or an existing one checked out nowhere, in the one
 * predictable place beside the repository (location.ts), and records it. A branch already checked
 * out in any worktree — the main checkout included — is refused (409 `branch_in_use`, naming where),
 * never silently replaced by another directory. Nothing here removes a worktree.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MusterError } from '../errors/index.ts';
import type { Session } from '../core/session.ts';
import { branchName } from './branch-name.ts';
import { createGitOperations, type GitOperations } from './git.ts';
import { worktreePath } from './location.ts';
import type { CreatedWorktree, WorktreeRecord, WorktreeSession, WorktreesRepository, WorktreeView } from './types.ts';

export interface WorktreeFs {
  exists(path: string): boolean;
  isDirectory(path: string): boolean;
}

const realFs: WorktreeFs = {
  exists: (p) => existsSync(p),
  isDirectory: (p) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  },
};

export interface WorktreesOptions {
  repo: WorktreesRepository;
  /** Default: git on the daemon's PATH (createGitOperations). */
  git?: GitOperations;
  /** Default: node:fs. */
  fs?: WorktreeFs;
  /** The sessions whose cwd is `path` or below it (the hub's). Default: none. */
  sessionsIn?(path: string): WorktreeSession[];
  clock?: () => number;
}

export interface Worktrees {
  /** Makes the worktree of `branch` for the repository holding `dir` (an existing directory), or refuses with a stable code. */
  create(dir: string, branch: string): Promise<CreatedWorktree>;
  /** Every worktree Muster made, newest first, with its sessions and whether it has uncommitted changes. */
  list(): Promise<WorktreeView[]>;
}

export function createWorktrees(opts: WorktreesOptions): Worktrees {
  const git = opts.git ?? createGitOperations();
  const fs = opts.fs ?? realFs;
  const clock = opts.clock ?? Date.now;
  // One create at a time: two requests for the same branch must not both pass the in-use check.
  let queue: Promise<unknown> = Promise.resolve();

  async function createNow(dir: string, branch: string): Promise<CreatedWorktree> {
    const at = await git.toplevel(dir);
    if (!at) throw new MusterError('not_a_repository', `${dir} is not in a git repository, so a worktree cannot be made of it; leave out the worktree branch or pick a directory in a repository`);
    const entries = await git.worktrees(dir);
    const main = entries[0];
    if (!main) throw new MusterError('git_failed', `git listed no worktree for ${at.top}`);
    const taken = entries.find((e) => e.branch === branch);
    if (taken) {
      throw new MusterError('branch_in_use', `branch ${branch} is already checked out in ${taken.path}; start the session there (its directory) or pick another branch`, { details: { branch, path: taken.path } });
    }
    const path = worktreePath(main.path, branch);
    if (fs.exists(path)) {
      throw new MusterError('worktree_exists', `${path} already exists but does not have branch ${branch} checked out; Muster never overwrites it — move it away or pick another branch`, { details: { branch, path } });
    }
    const existing = await git.branchExists(dir, branch);
    await git.addWorktree(dir, path, branch, !existing);
    const record: WorktreeRecord = { path, repo: main.path, branch, newBranch: !existing, createdAt: new Date(clock()).toISOString() };
    await opts.repo.put(record);
    // The session starts where it was asked to, inside the new tree (`repo/web` → `<worktree>/web`) when that exists there.
    const mirrored = at.prefix ? join(path, at.prefix) : path;
    return { record, cwd: at.prefix && fs.isDirectory(mirrored) ? mirrored.replace(/\/$/, '') : path };
  }

  return {
    async create(dir, branch) {
      const name = branchName(branch);
      const run = queue.then(() => createNow(dir, name));
      queue = run.catch(() => undefined);
      return run;
    },
    async list() {
      const records = await opts.repo.list();
      return Promise.all(
        records.map(async (r): Promise<WorktreeView> => {
          const exists = fs.isDirectory(r.path);
          return { ...r, exists, dirty: exists ? await git.dirty(r.path) : null, sessions: opts.sessionsIn?.(r.path) ?? [] };
        }),
      );
    },
  };
}

/** The sessions whose cwd is `path` or below it, as a worktree lists them. */
export function sessionsUnder(sessions: readonly Session[], path: string): WorktreeSession[] {
  const inside = (cwd: string | null) => cwd !== null && (cwd === path || cwd.startsWith(`${path}/`));
  return sessions.filter((s) => inside(s.cwd)).map((s) => ({ id: s.id, harness: s.harness, title: s.title, live: s.live, status: s.status, cwd: s.cwd as string }));
}
