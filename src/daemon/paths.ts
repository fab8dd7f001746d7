/**
 * Where Muster keeps its state: MUSTER_HOME (default ~/.muster), created 0700.
 * Secrets (token, DB, lock) are 0600.
 */
import { chmodSync, linkSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MusterError } from '../errors/index.ts';
import { isWellFormedToken } from './token-format.ts';
import { searchDbPathOf } from '../store/search-db.ts';

export interface MusterPaths {
  home: string;
  db: string;
  lock: string;
  token: string;
  packs: string;
  logs: string;
}

export function resolvePaths(env: NodeJS.ProcessEnv = process.env): MusterPaths {
  const home = resolve(env.MUSTER_HOME || join(homedir(), '.muster'));
  return {
    home,
    db: join(home, 'muster.db'),
    lock: join(home, 'muster.db.lock'),
    token: join(home, 'token'),
    packs: join(home, 'packs'),
    logs: join(home, 'logs'),
  };
}

export function ensureHome(paths: MusterPaths): void {
  try {
    mkdirSync(paths.home, { recursive: true, mode: 0o700 });
    if ((statSync(paths.home).mode & 0o077) !== 0) chmodSync(paths.home, 0o700);
    mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new MusterError('store_error', `cannot create MUSTER_HOME at ${paths.home}: ${(e as Error).message}; set MUSTER_HOME to a writable directory`, { cause: e });
  }
}

/**
 * Takes group and other access away from the secrets an earlier run (or a copy, a restore, an
 * editor) left open: token, store and search index with their WAL and shared-memory files, lock, log,
 * the fleet's membership (its database URL holds a password) and host id (0600) and the folders inside
 * MUSTER_HOME (0700). Files that do not exist are skipped; a symlink is left alone
 * (chmod would change what it points to). Runs at every start, after the lock is held.
 */
export function tightenHome(paths: MusterPaths): string[] {
  const changed: string[] = [];
  const search = searchDbPathOf(paths.db);
  const files = [paths.token, paths.db, `${paths.db}-wal`, `${paths.db}-shm`, search, `${search}-wal`, `${search}-shm`, paths.lock, join(paths.logs, 'daemon.log'), join(paths.home, 'fleet.json'), join(paths.home, 'host-id')];
  const dirs = [paths.logs, paths.packs, join(paths.home, 'launch'), join(paths.home, 'hooks')];
  for (const [path, mode] of [...files.map((f) => [f, 0o600] as const), ...dirs.map((d) => [d, 0o700] as const)]) {
    try {
      const st = lstatSync(path);
      if (st.isSymbolicLink() || (st.mode & 0o077) === 0) continue;
      chmodSync(path, mode);
      changed.push(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new MusterError('store_error', `cannot make ${path} private: ${(e as Error).message}`, { cause: e });
    }
  }
  return changed;
}

/**
 * The board token: stable per MUSTER_HOME (0600). A missing file gets a new token, linked into place
 * so a racing writer's token wins over ours rather than being overwritten. An empty or malformed file
 * (empty credentials would then match an empty cookie) is replaced atomically by a new token: a
 * reader sees the old bytes or the new token, never a half-written file.
 */
export function loadOrCreateToken(path: string): string {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = readTokenFile(path);
    if (current !== null && isWellFormedToken(current)) return current;
    const token = randomBytes(32).toString('base64url');
    const staged = `${path}.${randomBytes(6).toString('base64url')}.tmp`;
    try {
      writeFileSync(staged, `${token}\n`, { mode: 0o600, flag: 'wx' });
      if (current === null) linkSync(staged, path);
      else renameSync(staged, path);
      return token;
    } catch (e) {
      // EEXIST: another writer created the file between our read and our link; read theirs.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new MusterError('store_error', `cannot write the token at ${path}: ${(e as Error).message}`);
    } finally {
      rmSync(staged, { force: true });
    }
  }
  throw new MusterError('store_error', `the token at ${path} keeps changing under us; is another program writing it?`);
}

/** The token file's trimmed text; null when it does not exist. */
function readTokenFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new MusterError('store_error', `cannot read the token at ${path}: ${(e as Error).message}`);
  }
}

/** Reads the token without creating one; null when absent, unreadable or malformed. */
export function readToken(path: string): string | null {
  try {
    const t = readFileSync(path, 'utf8').trim();
    return isWellFormedToken(t) ? t : null;
  } catch {
    return null;
  }
}
