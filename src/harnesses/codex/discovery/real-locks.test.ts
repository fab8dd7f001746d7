/**
 * Lock-based liveness against the real /proc: a real child process takes flock(LOCK_EX) on a thread's
 * lock file, exactly as Codex does, and shows a `codex exec` argv (spawn's argv0). Python holds the
 * flock because Node has no flock; without python3 the test says so and skips.
 */
import { describe, it, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createProc } from '../../../discovery/proc/index.ts';
import { createCodexSource } from './source.ts';
import { makeCodexHome, touchLock } from './source-helpers.test-support.ts';
import { scanThreadLocks } from './thread-locks.ts';
import { execRollout, rec, writeRollout } from './rollout-fixtures.test-support.ts';

const LIVE = '01a22b3b-ccb3-7501-8aef-a297accbc975';
const KILLED = '01a22b3d-0e22-7cc1-b79e-551485385505';
const HOLD = 'import fcntl,os,time\nf=open(os.environ["LOCK_PATH"],"a")\nfcntl.flock(f,fcntl.LOCK_EX)\nprint("locked",flush=True)\nwhile True: time.sleep(1)';

function realPython(): string | null {
  try {
    const exe = execFileSync('python3', ['-c', 'import sys;print(sys.executable)'], { encoding: 'utf8', timeout: 5000 }).trim();
    return exe && existsSync(exe) ? exe : null;
  } catch { return null; }
}

/** Starts a process that shows `codex exec` in its argv and holds an flock on `lockPath`. */
async function holder(python: string, lockPath: string): Promise<ChildProcess> {
  // argv as /proc shows it: /opt/codex/bin/codex -c <script> exec slow → classified as `codex exec`.
  const child = spawn(python, ['-c', HOLD, 'exec', 'slow'], {
    argv0: '/opt/codex/bin/codex', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, LOCK_PATH: lockPath },
  });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('holder did not lock in time')), 10_000);
    child.stdout?.on('data', (d: Buffer) => { if (d.toString().includes('locked')) { clearTimeout(t); resolve(); } });
    child.once('exit', () => { clearTimeout(t); reject(new Error('holder exited')); });
  });
  return child;
}

const exited = (c: ChildProcess): Promise<void> => new Promise((r) => { if (c.exitCode !== null || c.signalCode !== null) r(); else c.once('exit', () => r()); });

describe('codex liveness with the real /proc/locks', { skip: process.platform !== 'linux' ? 'needs Linux /proc/locks' : false }, () => {
  const { home, cleanup } = makeCodexHome('muster-codex-real-');
  const python = realPython();
  const children: ChildProcess[] = [];
  before(() => {
    writeRollout(home, LIVE, [rec.meta(LIVE), rec.taskStarted(), rec.userItem('slow')]);
    writeRollout(home, KILLED, execRollout(KILLED).slice(0, 7));
  });
  after(() => { for (const c of children) c.kill('SIGKILL'); cleanup(); });

  it('a held lock is live and ends with SIGINT; a SIGKILLed holder leaves a stale lock that is not live', async (t) => {
    if (!python) { t.skip('python3 is not installed: nothing here can hold an flock'); return; }
    const live = await holder(python, touchLock(home, LIVE));
    const killed = await holder(python, touchLock(home, KILLED));
    children.push(live, killed);
    const src = createCodexSource({ home, proc: createProc(), withDaemon: () => Promise.reject(new Error('no daemon')) });

    const s1 = await src.get(KILLED);
    assert.equal(s1?.live, true, 'held before the kill');
    killed.kill('SIGKILL');
    await exited(killed);
    const s2 = await src.get(KILLED);
    assert.equal(s2?.live, false, 'a SIGKILL leftover is not live');
    assert.equal(s2?.status, 'ended');
    assert.ok(existsSync(`${home}/thread-writer-locks/${KILLED}.lock`), 'the stale file is still there');
    assert.equal(src.diagnostics().staleRegistryFiles, 1);

    const s3 = await src.get(LIVE);
    assert.equal(s3?.live, true);
    assert.equal(s3?.pid, live.pid);
    assert.equal(s3?.status, 'working');
    assert.equal(s3?.canEnd, true);
    assert.deepEqual(await src.end(LIVE), { outcome: 'ended', signal: 'SIGINT', pid: live.pid });
    await exited(live);
    assert.equal(live.signalCode, 'SIGINT', 'ended by the SIGINT Muster sent');
    assert.equal((await src.get(LIVE))?.live, false);
  });

  it('a liveness pass over 200 stale lock files stays fast', () => {
    for (let i = 0; i < 200; i++) touchLock(home, `01a22b3d-0000-7000-8000-${String(i).padStart(12, '0')}`);
    const proc = createProc();
    const t0 = performance.now();
    const scan = scanThreadLocks(home, proc, () => {});
    const ms = performance.now() - t0;
    assert.ok(scan.stale.length >= 200);
    // The target is 50 ms with 500 processes; a loose bound here keeps a loaded CI box green.
    assert.ok(ms < 250, `lock scan took ${ms.toFixed(1)} ms`);
  });
});
