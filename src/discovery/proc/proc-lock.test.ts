import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProc, descendants } from './index.ts';

function has(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A child holding an exclusive flock on `file` until killed: util-linux `flock` when present,
 * else python3's fcntl.flock. Resolves once /proc/locks shows the lock and the fork exists.
 */
async function holdFlock(file: string, proc: ReturnType<typeof createProc>): Promise<ChildProcess> {
  const child = has('flock')
    ? spawn('flock', ['-x', file, 'sleep', '30'], { stdio: 'ignore', detached: true })
    : spawn('python3', ['-c', 'import fcntl,os,sys,time; f=open(sys.argv[1],"a"); fcntl.flock(f, fcntl.LOCK_EX); os.fork() or time.sleep(30); time.sleep(30)', file], { stdio: 'ignore', detached: true });
  const until = Date.now() + 5000;
  while (Date.now() < until) {
    // Both holders fork a child sharing the locked file after locking; wait for it too, so a
    // test killing only the taker never races the fork.
    const locked = proc.locks().some((l) => l.pid === child.pid);
    if (locked && descendants(proc.snapshot(), child.pid as number).length > 0) return child;
    await new Promise((r) => setTimeout(r, 20));
  }
  killGroup(child);
  throw new Error('lock holder did not take the lock within 5 s');
}

/** The holder and the child it forked (which shares the locked open file) are one process group. */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {}
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

const canLock = process.platform === 'linux' && (has('flock') || has('python3'));

describe('probeLock / lockHolders with a real flock holder', { skip: !canLock && 'needs Linux /proc/locks and flock(1) or python3' }, () => {
  const proc = createProc();
  let dir = '';
  before(() => { dir = mkdtempSync(join(tmpdir(), 'muster-lock-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is true while held, lists the holder, and false once it exits', async () => {
    const file = join(dir, 'thread.lock');
    writeFileSync(file, '');
    assert.equal(proc.probeLock(file), false, 'free before');
    const child = await holdFlock(file, proc);
    try {
      assert.equal(proc.probeLock(file), true);
      assert.ok(proc.lockHolders(file).includes(child.pid as number), `holders ${proc.lockHolders(file).join(',')}`);
      const other = join(dir, 'other.lock');
      writeFileSync(other, '');
      assert.equal(proc.probeLock(other), false, 'a different file is free');
      assert.deepEqual(proc.lockHolders(other), []);
      const many = proc.lockHoldersMany([file, other, join(dir, 'missing.lock')]);
      assert.deepEqual(many.get(file), proc.lockHolders(file), 'the batched read agrees with the single one');
      assert.deepEqual(many.get(other), []);
      assert.deepEqual(many.get(join(dir, 'missing.lock')), []);
    } finally {
      killGroup(child);
    }
    await until(() => proc.probeLock(file) === false, 5000);
    assert.equal(proc.probeLock(file), false, 'released after the group exits');
    assert.deepEqual(proc.lockHolders(file), []);
  });

  it('stays held when the listed taker exits but a forked child keeps the open file', async () => {
    const file = join(dir, 'forked.lock');
    writeFileSync(file, '');
    const child = await holdFlock(file, proc);
    try {
      // flock(1) / the python holder forked a child sharing the locked file; /proc/locks still names the taker.
      child.kill('SIGKILL');
      await until(() => !proc.isAlive(child.pid as number), 5000);
      assert.equal(proc.isAlive(child.pid as number), false, 'taker gone');
      assert.equal(proc.probeLock(file), true, 'the kernel still holds the lock for the child');
      assert.ok(!proc.lockHolders(file).includes(child.pid as number), 'a dead pid is never a confirmed holder');
    } finally {
      killGroup(child);
    }
    await until(() => proc.probeLock(file) === false, 5000);
    assert.equal(proc.probeLock(file), false);
  });

  it('answers false for a file that was never created', () => {
    assert.equal(proc.probeLock(join(dir, 'missing', 'x.lock')), false);
    assert.deepEqual(proc.lockHolders(join(dir, 'missing.lock')), []);
  });
});
