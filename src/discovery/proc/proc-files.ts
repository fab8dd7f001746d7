/**
 * Cheap reads of /proc files. /proc files report size 0, so readFileSync's stat-then-read buys
 * nothing; one reusable buffer and plain open/read/close keeps a 300-process snapshot in a few ms.
 */
import { closeSync, openSync, readlinkSync, readSync } from 'node:fs';

let shared = Buffer.allocUnsafe(64 * 1024);

/**
 * Whole file as UTF-8, or null when it cannot be opened or read (raced exit, permissions).
 * `shortReadEnds`: a read() returning less than asked means end of file, saving the read that
 * would only confirm EOF. True for <pid>/stat (one seq_file record) and <pid>/cmdline (the kernel
 * copies until the buffer is full or argv ends); NOT for multi-record files like /proc/locks,
 * where seq_file returns short reads at record boundaries.
 */
export function readProcText(path: string, shortReadEnds = false): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    let len = 0;
    for (;;) {
      if (len === shared.length) {
        // A long argv (cmdline) outgrows the buffer: grow it once and keep it.
        const bigger = Buffer.allocUnsafe(shared.length * 2);
        shared.copy(bigger, 0, 0, len);
        shared = bigger;
      }
      const want = shared.length - len;
      const n = readSync(fd, shared, len, want, null);
      if (n <= 0) break;
      len += n;
      if (shortReadEnds && n < want) break;
    }
    return shared.toString('utf8', 0, len);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** readlink, or null when unreadable. A deleted target's " (deleted)" suffix is kept: callers decide. */
export function readLinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/** argv from /proc/<pid>/cmdline: NUL-separated, with a trailing NUL (empty for kernel threads and zombies). */
export function splitCmdline(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}
