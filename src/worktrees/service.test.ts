// Worktree creation and listing against real git repositories in temp dirs.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorktrees, parseWorktreeList, worktreePath, type WorktreeRecord, type WorktreesRepository } from './index.ts';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (dir: string, ...args: string[]): string => execFileSync('git', ['-C', dir, ...args], { env: GIT_ENV, encoding: 'utf8' });

function memoryRepo(): WorktreesRepository & { rows: WorktreeRecord[] } {
  const rows: WorktreeRecord[] = [];
  return {
    rows,
    async put(r) {
      const i = rows.findIndex((x) => x.path === r.path);
      if (i >= 0) rows.splice(i, 1);
      rows.unshift(r);
    },
    async list() {
      return [...rows];
    },
  };
}

const code = (c: string) => (e: Error & { code?: string }) => e.code === c;

describe('worktrees (real git)', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'muster-worktrees-')));
  const repoDir = join(root, 'app');
  let repo: ReturnType<typeof memoryRepo>;
  let wt: ReturnType<typeof createWorktrees>;

  before(() => {
    mkdirSync(join(repoDir, 'web', 'src'), { recursive: true });
    git(root, 'init', '-q', '-b', 'main', repoDir);
    writeFileSync(join(repoDir, 'web', 'src', 'a.txt'), 'a\n');
    git(repoDir, 'add', '.');
    git(repoDir, 'commit', '-q', '-m', 'first');
    git(repoDir, 'branch', 'existing');
    repo = memoryRepo();
    wt = createWorktrees({ repo, clock: () => Date.parse('2026-01-02T03:04:05Z'), sessionsIn: (p) => (p.endsWith('feature-x') ? [{ id: 's1', harness: 'pi', title: 't', live: true, status: 'idle', cwd: p }] : []) });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('a new branch: the worktree beside the repository, the branch made from HEAD, recorded', async () => {
    const made = await wt.create(repoDir, 'feature-x');
    const path = join(root, 'app.worktrees', 'feature-x');
    assert.deepEqual(made, { record: { path, repo: repoDir, branch: 'feature-x', newBranch: true, createdAt: '2026-01-02T03:04:05.000Z' }, cwd: path });
    assert.equal(git(path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'feature-x');
    assert.equal(git(path, 'rev-parse', 'HEAD'), git(repoDir, 'rev-parse', 'HEAD'));
    assert.deepEqual(repo.rows.map((r) => r.path), [path]);
  });

  it('the same branch again is refused with where it is checked out (409 branch_in_use), nothing made', async () => {
    await assert.rejects(wt.create(repoDir, 'feature-x'), (e: Error & { code?: string; status?: number; details?: Record<string, unknown> }) =>
      e.code === 'branch_in_use' && e.status === 409 && e.details?.path === join(root, 'app.worktrees', 'feature-x'));
    await assert.rejects(wt.create(repoDir, 'main'), (e: Error & { code?: string; details?: Record<string, unknown> }) => e.code === 'branch_in_use' && e.details?.path === repoDir);
    assert.equal(repo.rows.length, 1);
  });

  it('an existing branch checked out nowhere is used as it is; a subdirectory is mirrored; a slash is escaped', async () => {
    const made = await wt.create(join(repoDir, 'web', 'src'), 'existing');
    assert.equal(made.record.newBranch, false);
    assert.equal(made.cwd, join(root, 'app.worktrees', 'existing', 'web', 'src'));
    const slashed = await wt.create(repoDir, 'fix/issue-21');
    assert.equal(slashed.record.path, join(root, 'app.worktrees', 'fix%2Fissue-21'));
    assert.equal(worktreePath('/r/app', '100%/x'), '/r/app.worktrees/100%25%2Fx');
  });

  it('from inside a linked worktree, the new one still goes beside the main checkout', async () => {
    const made = await wt.create(join(root, 'app.worktrees', 'feature-x'), 'from-linked');
    assert.equal(made.record.path, join(root, 'app.worktrees', 'from-linked'));
    assert.equal(made.record.repo, repoDir);
  });

  it('two creates of one branch at once: one worktree, the other refused', async () => {
    const results = await Promise.allSettled([wt.create(repoDir, 'race'), wt.create(repoDir, 'race')]);
    assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.equal((failed.reason as { code?: string }).code, 'branch_in_use');
  });

  it('refusals: not a repository, an occupied path, an invalid name (before git runs)', async () => {
    const plain = join(root, 'plain');
    mkdirSync(plain);
    await assert.rejects(wt.create(plain, 'x'), code('not_a_repository'));
    mkdirSync(join(root, 'app.worktrees', 'occupied'), { recursive: true });
    await assert.rejects(wt.create(repoDir, 'occupied'), code('worktree_exists'));
    await assert.rejects(wt.create(repoDir, '--force'), code('invalid_branch'));
    await assert.rejects(wt.create(repoDir, 'a..b'), code('invalid_branch'));
    assert.equal(existsSync(join(root, 'app.worktrees', '--force')), false);
  });

  it('list: sessions, uncommitted changes, and a worktree removed by hand', async () => {
    const path = join(root, 'app.worktrees', 'feature-x');
    let view = (await wt.list()).find((v) => v.path === path);
    assert.equal(view?.exists, true);
    assert.equal(view?.dirty, false);
    assert.deepEqual(view?.sessions.map((s) => s.id), ['s1']);
    writeFileSync(join(path, 'new.txt'), 'x');
    view = (await wt.list()).find((v) => v.path === path);
    assert.equal(view?.dirty, true);
    rmSync(join(root, 'app.worktrees', 'race'), { recursive: true, force: true });
    const gone = (await wt.list()).find((v) => v.branch === 'race');
    assert.deepEqual([gone?.exists, gone?.dirty], [false, null]);
  });
});

describe('git worktree list --porcelain -z', () => {
  it('reads paths, branches, detached and bare entries; a newline in a path survives', () => {
    const out = ['worktree /r/app', 'HEAD abc', 'branch refs/heads/main', '', 'worktree /r/odd\nname', 'HEAD def', 'detached', '', 'worktree /r/bare.git', 'bare', '', ''].join('\0');
    assert.deepEqual(parseWorktreeList(out), [
      { path: '/r/app', branch: 'main', head: 'abc', bare: false },
      { path: '/r/odd\nname', branch: null, head: 'def', bare: false },
      { path: '/r/bare.git', branch: null, head: null, bare: true },
    ]);
  });
});
