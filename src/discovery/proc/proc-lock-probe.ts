/**
 * "Is this file locked by someone else?" without ever blocking or taking the lock. Taking it
 * (even non-blocking flock) could race the real owner's startup and make it fail; /proc/locks
 * answers from the kernel's table. A hit is matched by inode and device; an inode-only hit is
 * confirmed through the holder's /proc/<pid>/fd links, which guards against a device number
 * printed differently from what stat reports colliding with another file's inode.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { readLinkOrNull, readProcText } from './proc-files.ts';
import { devToLocksText, parseRawLocks } from './proc-locks.ts';
import type { RawFileLock } from './proc-locks.ts';

export interface LockProbeOptions {
  /** Default: '/proc'. */
  root?: string;
}

export interface LockProbe {
  /** true held, false free (or file missing), null cannot tell (no /proc/locks, file unstat-able). */
  probe(path: string): boolean | null;
  /** Pids whose open files confirm they hold a lock on `path`, ascending. */
  holders(path: string): number[];
  /** holders() for many paths with one /proc/locks read and one fd-table read per candidate pid. */
  holdersMany(paths: string[]): Map<string, number[]>;
}

interface Target {
  path: string;
  dev: string;
  ino: string;
  /** realpath of `path`, resolved only when fd links must be compared. */
  real?: string;
}

export function createLockProbe(options: LockProbeOptions = {}): LockProbe {
  const root = options.root ?? '/proc';

  /** The file's identity, 'missing', or null when it exists but cannot be stat'ed. */
  const target = (path: string): Target | 'missing' | null => {
    try {
      const st = statSync(path, { bigint: true });
      return { path, dev: devToLocksText(st.dev), ino: st.ino.toString() };
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'missing' : null;
    }
  };

  /** Granted (not waiting) locks on the target's inode, or null without /proc/locks. */
  const candidates = (t: Target): RawFileLock[] | null => {
    const text = readProcText(`${root}/locks`);
    if (text === null) return null;
    // Parse only lines naming this inode: most probes are of free files, and /proc/locks can be long.
    const needle = `:${t.ino} `;
    if (!text.includes(needle)) return [];
    const lines = text.split('\n').filter((line) => line.includes(needle)).join('\n');
    return parseRawLocks(lines).filter((l) => !l.blocked && l.inodeText === t.ino);
  };

  /** Does `pid` have `t` open? true / false / null (its fd table is unreadable to us). */
  const hasOpen = (pid: number, t: Target): boolean | null => {
    const fdDir = `${root}/${pid}/fd`;
    let fds: string[];
    try {
      fds = readdirSync(fdDir);
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EACCES' || (e as NodeJS.ErrnoException).code === 'EPERM' ? null : false;
    }
    if (t.real === undefined) {
      try {
        t.real = realpathSync(t.path);
      } catch {
        t.real = t.path;
      }
    }
    const links: string[] = [];
    for (const fd of fds) {
      const link = readLinkOrNull(`${fdDir}/${fd}`);
      if (link === t.real) return true;
      if (link?.startsWith('/')) links.push(fd);
    }
    // The path may differ (another mount namespace, a bind mount): compare the identity instead.
    for (const fd of links) {
      try {
        const st = statSync(`${fdDir}/${fd}`, { bigint: true });
        if (st.ino.toString() === t.ino && devToLocksText(st.dev) === t.dev) return true;
      } catch {}
    }
    return false;
  };

  /** Every file `pid` has open, by path and by device:inode, read once; null when unreadable. */
  const openIdentities = (pid: number): { paths: Set<string>; ids: Set<string> } | null => {
    const fdDir = `${root}/${pid}/fd`;
    let fds: string[];
    try {
      fds = readdirSync(fdDir);
    } catch {
      return null;
    }
    const paths = new Set<string>();
    const ids = new Set<string>();
    for (const fd of fds) {
      const link = readLinkOrNull(`${fdDir}/${fd}`);
      if (!link?.startsWith('/')) continue;
      paths.add(link);
      try {
        const st = statSync(`${fdDir}/${fd}`, { bigint: true });
        ids.add(`${devToLocksText(st.dev)}:${st.ino.toString()}`);
      } catch {}
    }
    return { paths, ids };
  };

  return {
    probe(path) {
      const t = target(path);
      if (t === 'missing') return false; // never claimed
      if (t === null) return null;
      const locks = candidates(t);
      if (locks === null) return null;
      // Same device and inode is this very file in the kernel's own table: held. No fd scan then —
      // it would cost a readlink per fd of the holder (a daemon holding hundreds of thread locks
      // makes that quadratic), and the listed pid can be stale anyway (flock follows the open file
      // into forked children after the taker exits) or -1 (OFD locks).
      if (locks.some((l) => l.dev === t.dev)) return true;
      // Inode only: the device may be printed differently from what stat reports (btrfs
      // subvolumes, overlayfs) or be another file system's inode. The holder's fds decide.
      for (const l of locks) if (l.pid > 0 && hasOpen(l.pid, t)) return true;
      return false;
    },
    holdersMany(paths) {
      const out = new Map<string, number[]>();
      const targets: Target[] = [];
      for (const p of paths) {
        out.set(p, []);
        const t = target(p);
        if (t !== 'missing' && t !== null) targets.push(t);
      }
      const text = targets.length > 0 ? readProcText(`${root}/locks`) : null;
      if (text === null) return out;
      const byIno = new Map<string, Target[]>();
      for (const t of targets) byIno.set(t.ino, [...(byIno.get(t.ino) ?? []), t]);
      const wanted = text.split('\n').filter((line) => {
        const m = /:(\d+) /.exec(line);
        return m !== null && byIno.has(m[1] as string);
      });
      const byPid = new Map<number, Target[]>();
      for (const l of parseRawLocks(wanted.join('\n'))) {
        if (l.blocked || l.pid <= 0) continue;
        for (const t of byIno.get(l.inodeText) ?? []) byPid.set(l.pid, [...(byPid.get(l.pid) ?? []), t]);
      }
      for (const [pid, ts] of byPid) {
        const open = openIdentities(pid);
        for (const t of ts) {
          if (!open) continue;
          if (t.real === undefined) {
            try {
              t.real = realpathSync(t.path);
            } catch {
              t.real = t.path;
            }
          }
          if (open.paths.has(t.real) || open.ids.has(`${t.dev}:${t.ino}`)) {
            const list = out.get(t.path) as number[];
            if (!list.includes(pid)) list.push(pid);
          }
        }
      }
      for (const list of out.values()) list.sort((a, b) => a - b);
      return out;
    },
    holders(path) {
      const t = target(path);
      if (t === 'missing' || t === null) return [];
      const pids = new Set<number>();
      for (const l of candidates(t) ?? []) if (l.pid > 0 && !pids.has(l.pid) && hasOpen(l.pid, t)) pids.add(l.pid);
      return [...pids].sort((a, b) => a - b);
    },
  };
}
