/**
 * Opening files that other programs keep in harness homes without ever blocking the daemon. Every
 * read of a source is synchronous, so one blocked call freezes the whole process: open() of a FIFO
 * waits for a writer, and a character device such as /dev/zero never reaches end of file. A file is
 * therefore opened O_NONBLOCK (a FIFO's open returns at once) and its descriptor fstat'ed: anything but
 * a regular file is closed unread. Checking the opened descriptor, not the path, leaves no window
 * between the check and the open. A unix socket cannot be opened at all and is refused the same way.
 */
import fs from 'node:fs';

/** What a refused path is instead of a regular file. */
export type NotRegularKind = 'fifo' | 'socket' | 'character device' | 'block device' | 'directory' | 'other';

/** Thrown for a path that exists but is not a regular file; sources skip it and count it. */
export class NotRegularFileError extends Error {
  /** errno-like, so callers that report `code` (ENOENT, EACCES, ...) show this one the same way. */
  readonly code = 'ENOTREG';
  constructor(readonly path: string, readonly kind: NotRegularKind) {
    super(`not a regular file (${kind}): ${path}`);
    this.name = 'NotRegularFileError';
  }
}

export function isNotRegularFile(e: unknown): e is NotRegularFileError {
  return e instanceof NotRegularFileError;
}

/** null for a regular file, else what it is. */
export function notRegularKind(st: fs.Stats): NotRegularKind | null {
  if (st.isFile()) return null;
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice()) return 'character device';
  if (st.isBlockDevice()) return 'block device';
  if (st.isDirectory()) return 'directory';
  return 'other';
}

// O_NOCTTY: opening a terminal device must never make it the daemon's controlling terminal.
// (The constants are undefined on Windows, where `| undefined` contributes 0.)
const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY;

/**
 * Opens `path` (following links) for reading; the caller closes `fd`. Throws NotRegularFileError for
 * anything but a regular file, or the open's own error (ENOENT, EACCES, ...). Never blocks.
 */
export function openRegularFile(path: string): { fd: number; stats: fs.Stats } {
  let fd: number;
  try {
    fd = fs.openSync(path, OPEN_FLAGS);
  } catch (e) {
    // Linux answers ENXIO for a unix socket, macOS EOPNOTSUPP; stat never blocks and says which.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENXIO' || code === 'EOPNOTSUPP') refuseIfNotRegular(path);
    throw e;
  }
  let stats: fs.Stats;
  try {
    stats = fs.fstatSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
  const kind = notRegularKind(stats);
  if (kind !== null) {
    fs.closeSync(fd);
    throw new NotRegularFileError(path, kind);
  }
  return { fd, stats };
}

/** stat (following links) that throws NotRegularFileError for anything but a regular file. */
export function statRegularFile(path: string): fs.Stats {
  const st = fs.statSync(path);
  const kind = notRegularKind(st);
  if (kind !== null) throw new NotRegularFileError(path, kind);
  return st;
}

function refuseIfNotRegular(path: string): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(path);
  } catch {
    return; // the open's own error stands
  }
  const kind = notRegularKind(st);
  if (kind !== null) throw new NotRegularFileError(path, kind);
}

const CHUNK = 64 * 1024;

/**
 * Every read goes through this one buffer (reads are synchronous), and only what was read is copied
 * out: a listing reads many files of a few hundred bytes (registry entries, git HEADs), and a fresh
 * 64 KiB buffer for each, with one more for the read that finds the end, cost page faults and garbage.
 */
let scratch: Buffer | undefined;

/**
 * The whole content of a regular file of at most `maxBytes`, with its stats (taken from the open
 * descriptor). A larger file throws an error with code EFBIG; it is never read past the limit.
 */
export function readRegularFile(path: string, maxBytes: number): { bytes: Buffer; stats: fs.Stats } {
  const { fd, stats } = openRegularFile(path);
  try {
    if (stats.size > maxBytes) throw tooLarge(path, maxBytes);
    const parts: Buffer[] = [];
    let total = 0;
    // Read to end of file rather than to the stat'ed size: the file may have grown since.
    scratch ??= Buffer.allocUnsafeSlow(CHUNK);
    for (;;) {
      const n = fs.readSync(fd, scratch, 0, Math.min(CHUNK, maxBytes + 1 - total), total);
      if (n <= 0) break;
      parts.push(Buffer.from(scratch.subarray(0, n)));
      total += n;
      if (total > maxBytes) throw tooLarge(path, maxBytes);
    }
    return { bytes: parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, total), stats };
  } finally {
    fs.closeSync(fd);
  }
}

/** readRegularFile as UTF-8 text (invalid bytes become U+FFFD; callers that care decode the bytes). */
export function readRegularText(path: string, maxBytes: number): string {
  return readRegularFile(path, maxBytes).bytes.toString('utf8');
}

function tooLarge(path: string, maxBytes: number): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`larger than ${maxBytes} bytes: ${path}`);
  e.code = 'EFBIG';
  return e;
}
