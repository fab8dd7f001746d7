/** Worktrees Muster created (migration 7): one row per path, kept after the worktree is removed by hand. */
import type Database from 'better-sqlite3';
import type { WorktreeRecord, WorktreesRepository } from '../worktrees/types.ts';

interface WorktreeRow {
  path: string;
  repo: string;
  branch: string;
  new_branch: number;
  created_at: string;
}

const toRecord = (r: WorktreeRow): WorktreeRecord => ({ path: r.path, repo: r.repo, branch: r.branch, newBranch: r.new_branch === 1, createdAt: r.created_at });

export const WORKTREES_TABLE_SQL = `
  CREATE TABLE worktrees (
    path TEXT PRIMARY KEY,
    repo TEXT NOT NULL,
    branch TEXT NOT NULL,
    new_branch INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
`;

export function createSqliteWorktreesRepository(db: Database.Database): WorktreesRepository {
  const put = db.prepare(`INSERT INTO worktrees (path, repo, branch, new_branch, created_at) VALUES (@path, @repo, @branch, @new_branch, @created_at)
    ON CONFLICT(path) DO UPDATE SET repo = excluded.repo, branch = excluded.branch, new_branch = excluded.new_branch, created_at = excluded.created_at`);
  // rowid breaks ties between rows created in the same millisecond.
  const all = db.prepare<[], WorktreeRow>('SELECT * FROM worktrees ORDER BY created_at DESC, rowid DESC LIMIT 1000');
  return {
    async put(r) {
      put.run({ path: r.path, repo: r.repo, branch: r.branch, new_branch: r.newBranch ? 1 : 0, created_at: r.createdAt });
    },
    async list() {
      return all.all().map(toRecord);
    },
  };
}
