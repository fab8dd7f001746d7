/** Repository root and branch of a directory, read from git's files without spawning git. */
export { readGitInfo, realGitFs } from './git-info.ts';
export type { GitFsOperations, GitInfo } from './git-info.ts';
export { createGitReader } from './git-reader.ts';
export type { GitReader, GitReaderOptions } from './git-reader.ts';
