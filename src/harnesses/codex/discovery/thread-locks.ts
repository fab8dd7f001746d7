/**
 * Live Codex threads from `thread-writer-locks/<id>.lock`: a thread
 * is live only while some process holds an flock on its file. The file's existence means nothing
 * (SIGTERM/SIGKILL leave stale files). Never takes the lock: a Codex starting at that moment would
 * see a conflict. One /proc/locks read filters by inode; only the few matches are confirmed through
 * the holder's open files (ProcPort.lockHolders), so 200 stale files cost 200 stats, not 200 scans.
 */
import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { isUuid } from '../../../core/ids.ts';
import { NotRegularFileError, notRegularKind } from '../../../discovery/regular-file/index.ts';
import type { ProcPort } from '../../../discovery/proc/types.ts';

export interface HeldThreadLock {
  threadId: string;
  path: string;
  /** Confirmed holder pids, ascending. */
  holderPids: number[];
  /** When the lock file was created (best of birth/change/modify time), ms since epoch. */
  loadedAtMs: number;
}

export interface ThreadLockScan {
  held: HeldThreadLock[];
  /** Lock files nobody holds: leftovers of a killed writer (or of a daemon forced down). */
  stale: string[];
}

export function lockPathFor(home: string, threadId: string): string {
  return join(home, 'thread-writer-locks', `${threadId}.lock`);
}

/** Lock files are only stat'ed, never opened; one that is not a regular file is reported to `onRefused`. */
export function scanThreadLocks(
  home: string, proc: ProcPort, onError: (msg: string) => void, onRefused: (e: NotRegularFileError) => void = () => {},
): ThreadLockScan {
  const dir = join(home, 'thread-writer-locks');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') onError(`readdir ${dir}: ${(e as Error).message}`);
    return { held: [], stale: [] };
  }
  let inodes: Set<number>;
  try {
    inodes = new Set(proc.locks().filter((l) => l.kind === 'FLOCK' && !l.blocked).map((l) => l.inode));
  } catch (e) {
    onError(`read locks: ${(e as Error).message}`);
    inodes = new Set();
  }
  const held: HeldThreadLock[] = [];
  const stale: string[] = [];
  const files: { id: string; path: string; st: Stats }[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.lock')) continue;
    const id = name.slice(0, -5);
    if (!isUuid(id)) continue; // `.coordination.lock` and anything foreign
    const path = join(dir, name);
    let st;
    try { st = statSync(path); } catch { continue; } // raced with an unload
    const kind = notRegularKind(st);
    if (kind !== null) { onRefused(new NotRegularFileError(path, kind)); continue; }
    files.push({ id, path, st });
  }
  // Only files whose inode the kernel lists are confirmed, all in one pass over the holders' fds.
  const holders = proc.lockHoldersMany(files.filter((f) => inodes.has(f.st.ino)).map((f) => f.path));
  for (const { id, path, st } of files) {
    const holderPids = holders.get(path) ?? [];
    if (holderPids.length === 0) { stale.push(path); continue; }
    const loadedAtMs = Math.max(st.birthtimeMs || 0, st.ctimeMs, st.mtimeMs);
    held.push({ threadId: id.toLowerCase(), path, holderPids: [...holderPids].sort((a, b) => a - b), loadedAtMs });
  }
  return { held, stale };
}
