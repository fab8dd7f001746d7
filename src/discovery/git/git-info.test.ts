import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGitReader, readGitInfo } from './index.ts';

// Real repositories made with the real git; identity and config isolated from the host's.
const gitEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com',
};
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let root = '';
let repo = '';
before(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'muster-git-')));
  repo = join(root, 'repo');
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  git(repo, 'init', '-q');
  writeFileSync(join(repo, 'a.txt'), 'a');
  git(repo, 'add', 'a.txt');
  git(repo, 'commit', '-q', '-m', 'one');
});
after(() => rmSync(root, { recursive: true, force: true }));

describe('readGitInfo', () => {
  it('finds the root and branch from the root and from a nested directory', () => {
    assert.deepEqual(readGitInfo(repo), { repoRoot: repo, branch: 'main' });
    assert.deepEqual(readGitInfo(join(repo, 'src', 'deep')), { repoRoot: repo, branch: 'main' });
  });

  it('follows a branch switch, including branch names with slashes', () => {
    git(repo, 'checkout', '-q', '-b', 'feat/x');
    try {
      assert.equal(readGitInfo(repo).branch, 'feat/x');
    } finally {
      git(repo, 'checkout', '-q', 'main');
    }
  });

  it("reports 'HEAD' when detached", () => {
    git(repo, 'checkout', '-q', '--detach');
    try {
      assert.deepEqual(readGitInfo(join(repo, 'src')), { repoRoot: repo, branch: 'HEAD' });
    } finally {
      git(repo, 'checkout', '-q', 'main');
    }
  });

  it('reads an unborn branch of a fresh repository', () => {
    const fresh = join(root, 'fresh');
    mkdirSync(fresh);
    git(fresh, 'init', '-q', '-b', 'trunk');
    assert.deepEqual(readGitInfo(fresh), { repoRoot: fresh, branch: 'trunk' });
  });

  it('follows a worktree gitdir file to its own HEAD', () => {
    const wt = join(root, 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'wt-branch', wt);
    assert.deepEqual(readGitInfo(join(wt)), { repoRoot: wt, branch: 'wt-branch' });
    assert.equal(readGitInfo(repo).branch, 'main', 'the main work tree is unaffected');
  });

  it('follows a submodule relative gitdir file', () => {
    const sub = join(root, 'subsrc');
    mkdirSync(sub);
    git(sub, 'init', '-q', '-b', 'submain');
    writeFileSync(join(sub, 'b.txt'), 'b');
    git(sub, 'add', 'b.txt');
    git(sub, 'commit', '-q', '-m', 'sub');
    git(repo, 'submodule', 'add', '-q', sub, 'mod');
    const info = readGitInfo(join(repo, 'mod'));
    assert.equal(info.repoRoot, join(repo, 'mod'));
    assert.ok(info.branch === 'submain' || info.branch === 'HEAD', `submodule branch ${String(info.branch)}`);
  });

  it('returns nulls outside any repository and for a missing directory', () => {
    const plain = join(root, 'plain');
    mkdirSync(plain);
    // root is under os.tmpdir(); if someone made /tmp a repo this test would be meaningless, so say so.
    assert.equal(readGitInfo(tmpdir()).repoRoot, null, 'tmpdir itself must not be inside a repo');
    assert.deepEqual(readGitInfo(plain), { repoRoot: null, branch: null });
    assert.deepEqual(readGitInfo(join(plain, 'gone', 'deeper')), { repoRoot: null, branch: null });
  });

  it('treats a broken gitdir file as the root with an unknown branch', () => {
    const broken = join(root, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, '.git'), 'gitdir: ../nowhere\n');
    assert.deepEqual(readGitInfo(broken), { repoRoot: broken, branch: null });
  });
});

describe('createGitReader', () => {
  it('reuses an answer within the TTL and re-reads after it', () => {
    let now = 1000;
    let reads = 0;
    const reader = createGitReader({
      ttlMs: 500,
      now: () => now,
      fs: {
        kind: (p) => (p === '/r/.git' ? 'dir' : null),
        readText: (p) => { reads++; return p === '/r/.git/HEAD' ? `ref: refs/heads/b${reads}\n` : null; },
      },
    });
    assert.deepEqual(reader.read('/r/x'), { repoRoot: '/r', branch: 'b1' });
    now += 499;
    assert.equal(reader.read('/r/x').branch, 'b1', 'cached');
    now += 1;
    assert.equal(reader.read('/r/x').branch, 'b2', 'expired');
    reader.clear();
    assert.equal(reader.read('/r/x').branch, 'b3', 'cleared');
  });

  it('bounds the cache', () => {
    let reads = 0;
    const counting = createGitReader({ maxEntries: 2, fs: { kind: () => { reads++; return null; }, readText: () => null } });
    for (const d of ['/a', '/b', '/c']) counting.read(d);
    const before = reads;
    counting.read('/a'); // evicted: read again (walks '/a' then '/')
    assert.equal(reads - before, 2);
    counting.read('/c'); // still cached
    assert.equal(reads - before, 2);
  });
});
