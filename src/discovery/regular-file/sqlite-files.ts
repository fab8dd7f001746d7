/**
 * SQLite opens a database and its side files itself, with blocking open() calls, so it cannot be
 * handed a non-blocking descriptor the way openRegularFile does. The store and any `-wal`, `-shm` or
 * `-journal` beside it are stat'ed first (stat never blocks) and the open is refused unless each that
 * exists is a regular file. A FIFO swapped in between this check and SQLite's own open could still
 * block; nothing outside SQLite can close that window, so it is kept as short as one call.
 */
import fs from 'node:fs';
import { NotRegularFileError, notRegularKind } from './regular-file.ts';

const SIDE_FILES = ['-wal', '-shm', '-journal'];

/** Throws NotRegularFileError when the store or an existing side file is not a regular file. */
export function assertSqliteFilesRegular(dbPath: string): void {
  for (const path of [dbPath, ...SIDE_FILES.map((s) => `${dbPath}${s}`)]) {
    let st: fs.Stats;
    try {
      st = fs.statSync(path);
    } catch (e) {
      if (path === dbPath) throw e; // a missing store is the caller's ordinary error
      continue; // a side file that does not exist is normal
    }
    const kind = notRegularKind(st);
    if (kind !== null) throw new NotRegularFileError(path, kind);
  }
}
