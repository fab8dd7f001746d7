/** Safe reads in harness homes: regular files only, opened non-blocking; links followed only inside the home. */
export {
  NotRegularFileError, isNotRegularFile, notRegularKind, openRegularFile, readRegularFile, readRegularText, statRegularFile,
} from './regular-file.ts';
export type { NotRegularKind } from './regular-file.ts';
export { assertSqliteFilesRegular, sqliteAddon } from './sqlite-files.ts';
export { outsideMessage, resolvesInside } from './inside-roots.ts';
