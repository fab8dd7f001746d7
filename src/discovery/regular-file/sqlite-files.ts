/**
 * SQLite opens a database and its side files itself, with blocking open() calls, so it cannot be
 * handed a non-blocking descriptor the way openRegularFile does. The store and any `-wal`, `-shm` or
 * `-journal` beside it are stat'ed first (stat never blocks) and the open is refused unless each that
 * exists is a regular file. A FIFO swapped in between this check and SQLite's own open could still
 * block; nothing outside SQLite can close that window, so it is kept as short as one call.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

let addon: string | null | undefined;

/**
 * better-sqlite3's compiled addon where the package's build puts it, for the driver's `nativeBinding`
 * option (every open in Muster passes it: the store, the search thread, Codex's and OpenCode's
 * readers). Given the path, the driver loads the addon at once; without it, the `bindings` package
 * finds it by walking a stack trace and probing a dozen paths (a fresh process's first open: 6.4 ms
 * against 2.9 ms here). Undefined when the file is not there: the driver then searches as before.
 */
export function sqliteAddon(): string | undefined {
  if (addon === undefined) {
    try {
      const file = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
      addon = fs.existsSync(file) ? file : null;
    } catch {
      addon = null; // not resolvable from here (a bundle moved away from its node_modules): the driver's own search
    }
  }
  return addon ?? undefined;
}
