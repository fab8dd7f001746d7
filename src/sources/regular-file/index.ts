/** Non-blocking reads of regular files only: what every source uses to open a file in a harness home. */
export {
  NotRegularFileError, isNotRegularFile, notRegularKind, openRegularFile, readRegularFile, readRegularText, statRegularFile,
} from './regular-file.ts';
export type { NotRegularKind } from './regular-file.ts';
export { assertSqliteFilesRegular } from './sqlite-files.ts';
