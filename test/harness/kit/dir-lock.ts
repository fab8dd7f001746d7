/**
 * A cross-process lock made of `mkdir` (atomic on every local filesystem) holding an `owner` file
 * with the pid. A lock whose owner pid is gone is stale and is broken. Used so that two test files
 * calling ensureHarnessCli at once run one npm install, not two into the same prefix.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DirLockOptions {
  /** Give up after this many ms. Default: 20 minutes (a cold install downloads ~1 GB). */
  timeoutMs?: number;
  /** Poll interval in ms while another process holds the lock. Default: 500. */
  pollMs?: number;
}

function ownerAlive(lockDir: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(lockDir, 'owner'), 'utf8').trim());
  } catch {
    // mkdir done but owner not yet written: alive unless that was long ago (owner died in between).
    try {
      return Date.now() - fs.statSync(lockDir).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Acquires `lockDir`; resolves to a release function (idempotent). */
export async function acquireDirLock(lockDir: string, options: DirLockOptions = {}): Promise<() => void> {
  const deadline = Date.now() + (options.timeoutMs ?? 20 * 60_000);
  const pollMs = options.pollMs ?? 500;
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'owner'), String(process.pid));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        fs.rmSync(lockDir, { recursive: true, force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (!ownerAlive(lockDir)) {
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${lockDir}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
