/**
 * A git worktree Muster created for `muster new --worktree BRANCH`. Muster records every one it makes
 * and never removes one: ending a session leaves its worktree, and the record stays even when the
 * operator removes the worktree by hand (it is then listed as gone).
 */
import type { Harness, SessionStatus } from '../core/session.ts';

export interface WorktreeRecord {
  /** Absolute path of the worktree (`<repo-parent>/<repo-name>.worktrees/<escaped branch>`). */
  path: string;
  /** The main checkout of the repository it belongs to. */
  repo: string;
  branch: string;
  /** True when Muster created the branch too (from the directory's HEAD); false for an existing branch. */
  newBranch: boolean;
  /** ISO time it was created. */
  createdAt: string;
}

/** Fleet-shared, hence async (as the other repositories). */
export interface WorktreesRepository {
  /** Records a worktree; a record of the same path (one removed by hand and made again) is replaced. */
  put(record: WorktreeRecord): Promise<void>;
  /** Newest first. */
  list(): Promise<WorktreeRecord[]>;
}

/** A session seen in a worktree (its cwd is the worktree or below it). */
export interface WorktreeSession {
  id: string;
  harness: Harness;
  title: string;
  live: boolean;
  status: SessionStatus;
  cwd: string;
}

export interface WorktreeView extends WorktreeRecord {
  /** False when the directory is gone (removed by hand). */
  exists: boolean;
  /** Uncommitted changes or untracked files; null when it is gone or git could not tell. */
  dirty: boolean | null;
  sessions: WorktreeSession[];
}

/** A worktree just made: where the session starts (the directory asked for, mirrored inside it). */
export interface CreatedWorktree {
  record: WorktreeRecord;
  cwd: string;
}
