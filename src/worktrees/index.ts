// Git worktrees for new sessions: branch-name rules, the one place each worktree goes, creation and the listing.
export { branchName, branchNameProblem, MAX_BRANCH_LENGTH } from './branch-name.ts';
export { escapeBranch, worktreePath, worktreesHome } from './location.ts';
export { createGitOperations, type GitOperations, type GitOptions } from './git.ts';
export { parseWorktreeList, type WorktreeEntry } from './porcelain.ts';
export { createWorktrees, sessionsUnder, type Worktrees, type WorktreesOptions, type WorktreeFs } from './service.ts';
export type { CreatedWorktree, WorktreeRecord, WorktreeSession, WorktreesRepository, WorktreeView } from './types.ts';
