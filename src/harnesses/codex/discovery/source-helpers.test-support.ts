/**
 * Test support for the Codex source: a CODEX_HOME in a temp dir, and an adapter that makes the shared
 * fake ProcPort report the real inodes of lock files (the fake numbers its own inodes, and the source
 * pre-filters lock files by inode before asking lockHolders). Test-only.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileLock, ProcPort } from '../../../discovery/proc/types.ts';

export const NATIVE = '/opt/codex/vendor/x86_64-unknown-linux-musl/bin/codex';
export const DAEMON_BIN = '/home/dev/.codex/packages/app-server-daemon/releases/0.171.0-x86_64-unknown-linux-musl/bin/codex';
export const DAEMON_ARGV = [DAEMON_BIN, 'app-server', '--listen', 'unix://', '--analytics-default-enabled', '--managed-daemon'];

export function makeCodexHome(prefix = 'muster-codex-src-'): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(home, 'thread-writer-locks'), { recursive: true });
  writeFileSync(join(home, 'thread-writer-locks', '.coordination.lock'), '');
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export function touchLock(home: string, id: string): string {
  const p = join(home, 'thread-writer-locks', `${id}.lock`);
  writeFileSync(p, '');
  return p;
}

/** Wraps a ProcPort so locks() carries the real inode of every held lock file under `home`. */
export function withRealInodes<P extends ProcPort>(proc: P, home: string): P {
  const locks = (): FileLock[] => {
    const dir = join(home, 'thread-writer-locks');
    const out: FileLock[] = [];
    let names: string[] = [];
    try { names = readdirSync(dir); } catch { return out; }
    for (const n of names) {
      const p = join(dir, n);
      for (const pid of proc.lockHolders(p)) {
        out.push({ kind: 'FLOCK', mode: 'ADVISORY', access: 'WRITE', pid, dev: '00:2a', inode: statSync(p).ino, blocked: false });
      }
    }
    return out;
  };
  return new Proxy(proc, { get: (t, k, r) => (k === 'locks' ? locks : Reflect.get(t, k, r)) as unknown });
}
