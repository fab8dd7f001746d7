/**
 * Branch names as git accepts them (`git check-ref-format --branch`, git 2.39), checked here so a
 * name is refused before it reaches git, a path or a command line. Git's rules for a ref component,
 * applied to `refs/heads/<name>`: no `..`, no ASCII control character, space, `~ ^ : ? * [ \`, no
 * `@{`, no component that starts with `.` or ends with `.lock`, no empty component (`//`, a leading
 * or trailing `/`), not ending in `.`. `--branch` also refuses a name starting with `-` and `HEAD`.
 * Muster refuses `@` too (git reads it as HEAD) and bounds the length, since the name becomes a
 * directory name.
 */
import { MusterError } from '../errors/index.ts';

/** Longest branch name Muster takes, in characters. */
export const MAX_BRANCH_LENGTH = 200;

// eslint-disable-next-line no-control-regex -- control characters are what git refuses
const FORBIDDEN = /[\u0000-\u0020\u007f~^:?*[\\]/;

/** Why `name` is not a branch name git would accept, or null when it is one. */
export function branchNameProblem(name: string): string | null {
  if (name === '') return 'the branch name is empty';
  if (name.length > MAX_BRANCH_LENGTH) return `a branch name is at most ${MAX_BRANCH_LENGTH} characters`;
  if (name.startsWith('-')) return 'a branch name cannot start with "-"';
  if (name === 'HEAD' || name === '@') return `"${name}" is not a branch name`;
  if (FORBIDDEN.test(name)) return 'a branch name cannot contain spaces, control characters or any of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'a branch name cannot contain ".."';
  if (name.includes('@{')) return 'a branch name cannot contain "@{"';
  if (name.endsWith('.')) return 'a branch name cannot end with "."';
  for (const part of name.split('/')) {
    if (part === '') return 'a branch name cannot start or end with "/" or contain "//"';
    if (part.startsWith('.')) return 'no part of a branch name can start with "."';
    if (part.endsWith('.lock')) return 'no part of a branch name can end with ".lock"';
  }
  return null;
}

/** The name when git would accept it as a branch; 400 `invalid_branch` otherwise. */
export function branchName(name: unknown): string {
  if (typeof name !== 'string') throw new MusterError('invalid_branch', 'the branch name must be a string');
  const problem = branchNameProblem(name);
  if (problem) throw new MusterError('invalid_branch', `${JSON.stringify(name.slice(0, MAX_BRANCH_LENGTH))} is not a valid branch name: ${problem}`);
  return name;
}
