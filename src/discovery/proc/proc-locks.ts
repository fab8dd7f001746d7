/**
 * /proc/locks parsing. Lines look like
 *   `1: FLOCK  ADVISORY  WRITE 4242 fd:01:1310987 0 EOF`
 *   `1: -> FLOCK  ADVISORY  WRITE 4243 fd:01:1310987 0 EOF`   (a blocked waiter)
 *   `2: LEASE  ACTIVE    READ 77 00:1a:99 0 EOF`               (leases print their state as the mode)
 * The device is MAJOR:MINOR in hex; the inode is decimal and may exceed 2^53, so matching is
 * done on its text (`inodeText`), while FileLock.inode keeps the port's number type.
 */
import type { FileLock } from './types.ts';

export interface RawFileLock extends FileLock {
  /** The inode exactly as printed, for exact comparison with a bigint stat. */
  inodeText: string;
}

const LINE = /^\s*\d+:\s+(->\s+)?(\S+)\s+(\S+)\s+(\S+)\s+(-?\d+)\s+([0-9a-f]+:[0-9a-f]+):(\d+)\s/i;

export function parseRawLocks(text: string): RawFileLock[] {
  const out: RawFileLock[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line + ' ');
    if (!m) continue;
    const [, arrow, kind = '', mode = '', access = '', pid = '', dev = '', inode = ''] = m;
    out.push({ kind, mode, access, pid: Number(pid), dev: dev.toLowerCase(), inode: Number(inode), inodeText: inode, blocked: Boolean(arrow) });
  }
  return out;
}

/** Every well-formed line of /proc/locks; malformed lines are dropped. */
export function parseProcLocks(text: string): FileLock[] {
  return parseRawLocks(text).map(({ inodeText: _inodeText, ...lock }) => lock);
}

/**
 * The MAJOR:MINOR hex pair /proc/locks prints for a stat dev_t (glibc's gnu_dev_major/minor
 * encoding, which Node's bigint stat returns unchanged).
 */
export function devToLocksText(dev: bigint): string {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}`;
}
