/**
 * Where Muster keeps its state: MUSTER_HOME (default ~/.muster), created 0700.
 * Secrets (token, DB, lock) are 0600.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MusterError } from '../errors/index.ts';

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

/** The board token: stable per MUSTER_HOME, created once (0600). */
export function loadOrCreateToken(path: string): string {
  try {
    const t = readFileSync(path, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(t)) return t;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new MusterError('store_error', `cannot read the token at ${path}: ${(e as Error).message}`);
  }
  const token = randomBytes(32).toString('base64url');
  try {
    // 'wx' so two first starts racing cannot both write different tokens.
    writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return token;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8').trim();
    throw new MusterError('store_error', `cannot write the token at ${path}: ${(e as Error).message}`);
  }
}

/** Reads the token without creating one; null when absent. */
export function readToken(path: string): string | null {
  try {
    const t = readFileSync(path, 'utf8').trim();
    return t.length > 0 ? t : null;
  } catch {
    return null;
  }
}
