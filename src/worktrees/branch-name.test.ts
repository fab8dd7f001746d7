import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { branchName, branchNameProblem } from './branch-name.ts';

/** Names around every rule; each is also put to the real `git check-ref-format --branch`. */
const NAMES = [
  'feature-x', 'feature/x', 'x/-y', 'a#b', 'a}b', '{a', 'A', 'é', 'a@b', 'fix/issue-21/part.2', 'v1.2.3',
  '', '-a', '--', 'a b', 'a\tb', 'a\nb', 'a\u007fb', 'a~b', 'a^b', 'a:b', 'a?b', 'a*b', 'a[b', 'a\\b',
  'a..b', 'a@{b', '@{-1}', 'a.', 'a/.', '.a', 'a/.b', 'a.lock', 'a/b.lock/c', 'a.lock/b', 'a//b', '/a', 'a/', 'HEAD', 'a/./b',
  '$(touch x)', '`id`', 'a;b', "a'b", 'a"b', 'a|b', 'a&b', 'a>b',
];

test('branch names: the same verdict as git check-ref-format --branch (outside a repository)', () => {
  for (const name of NAMES) {
    // Outside a repository git cannot expand `@`/`@{-1}`; Muster refuses `@` outright (git's HEAD shorthand).
    const git = spawnSync('git', ['check-ref-format', '--branch', name], { cwd: '/', encoding: 'utf8' }).status === 0;
    assert.equal(branchNameProblem(name) === null, git, `${JSON.stringify(name)}: git says ${git ? 'valid' : 'invalid'}`);
  }
});

test('branch names: "@" and over-long names are refused although git takes them', () => {
  assert.match(branchNameProblem('@') ?? '', /not a branch name/);
  assert.match(branchNameProblem('a'.repeat(201)) ?? '', /at most 200/);
  assert.equal(branchNameProblem('a'.repeat(200)), null);
});

test('branchName: invalid_branch with the reason; a non-string is refused too', () => {
  assert.equal(branchName('feature-x'), 'feature-x');
  assert.throws(() => branchName('a..b'), (e: Error & { code?: string; status?: number }) => e.code === 'invalid_branch' && e.status === 400 && /"\.\."/.test(e.message));
  assert.throws(() => branchName(42), (e: Error & { code?: string }) => e.code === 'invalid_branch');
});
