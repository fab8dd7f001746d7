/**
 * The git commands worktrees need, behind one port. The real one runs `git -C <dir> …` through
 * execFile (argv, never a shell), bounded in time, with the variables that would point git at
 * another repository removed and prompts off; status reads take no optional locks, so listing never
 * competes with an agent's own git use.
 */
import { execFile } from 'node:child_process';
import { MusterError } from '../errors/index.ts';
import { parseWorktreeList, type WorktreeEntry } from './porcelain.ts';

export interface GitOperations {
  /**
   * The top of the working tree holding `dir` and `dir`'s path below it (`''` at the top, else ending
   * in `/`); null when `dir` is in no git repository.
   */
  toplevel(dir: string): Promise<{ top: string; prefix: string } | null>;
  /** Every worktree of the repository holding `dir`, the main one first. */
  worktrees(dir: string): Promise<WorktreeEntry[]>;
  branchExists(dir: string, branch: string): Promise<boolean>;
  /**
   * `git worktree add`: a new branch from `dir`'s HEAD when `create`, else the existing branch.
   * Rejects with `git_failed` (git's own message) when git refuses.
   */
  addWorktree(dir: string, path: string, branch: string, create: boolean): Promise<void>;
  /** True when the worktree at `path` has uncommitted changes or untracked files; null when git cannot tell. */
  dirty(path: string): Promise<boolean | null>;
}

export interface GitOptions {
  /** Environment git runs in (its PATH, HOME for its config). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Bound on one git command, ms. Default: 30000 (a checkout of a large tree takes a while). */
  timeoutMs?: number;
}

/** Variables that would make `git -C dir` act on some other repository than dir's. */
const REDIRECTS = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE', 'GIT_PREFIX'];

type Run = (dir: string, args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

function runner(opts: GitOptions): Run {
  const env: NodeJS.ProcessEnv = { ...(opts.env ?? process.env), GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
  for (const k of REDIRECTS) delete env[k];
  const timeout = opts.timeoutMs ?? 30_000;
  return (dir, args) =>
    new Promise((resolve, reject) => {
      execFile('git', ['-C', dir, ...args], { env, timeout, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const code = (error as { code?: unknown }).code;
        // A number is git's exit status; anything else (ENOENT, a timeout's signal) means git did not answer.
        if (typeof code === 'number') return resolve({ code, stdout, stderr });
        reject(new MusterError('git_failed', `git ${args[0]} could not run: ${error.message}`));
      });
    });
}

export function createGitOperations(opts: GitOptions = {}): GitOperations {
  const run = runner(opts);
  const failed = (what: string, r: { stderr: string }) => new MusterError('git_failed', `${what}: ${r.stderr.trim() || 'git failed'}`);
  return {
    async toplevel(dir) {
      const r = await run(dir, ['rev-parse', '--show-toplevel', '--show-prefix']);
      const [top, prefix] = r.stdout.replace(/\n$/, '').split('\n');
      return r.code === 0 && top ? { top, prefix: prefix ?? '' } : null;
    },
    async worktrees(dir) {
      const r = await run(dir, ['worktree', 'list', '--porcelain', '-z']);
      if (r.code !== 0) throw failed('git worktree list', r);
      return parseWorktreeList(r.stdout);
    },
    async branchExists(dir, branch) {
      const r = await run(dir, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]);
      return r.code === 0;
    },
    async addWorktree(dir, path, branch, create) {
      // `path` is absolute and `branch` a validated name (no leading '-'): neither can read as an option.
      const args = create ? ['worktree', 'add', '-b', branch, path] : ['worktree', 'add', path, branch];
      const r = await run(dir, args);
      if (r.code !== 0) throw failed(`git worktree add for ${branch}`, r);
    },
    async dirty(path) {
      const r = await run(path, ['status', '--porcelain']).catch(() => null);
      return r && r.code === 0 ? r.stdout.trim() !== '' : null;
    },
  };
}
