/**
 * Liveness against the real /proc: a real process whose executable is named `copilot` takes
 * flock(LOCK_EX) on `inuse.<its pid>.hold`, as the native CLI does. It is util-linux's flock(1) copied
 * under that name and exec'd by a shell that knows its own pid (`exec` keeps it). Without flock(1) the
 * test says so and skips.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProc } from '../../../discovery/proc/index.ts';
import { createCopilotSource } from './source.ts';
import { copySession, tempHome, PRINT_ID, TUI_ID } from './copilot-fixtures.test-support.ts';

const FLOCK = ['/usr/bin/flock', '/bin/flock'].find((p) => existsSync(p)) ?? null;

/** Starts `<bin>/copilot` holding an flock on `<dir>/inuse.<pid>.hold`; resolves once the lock is taken. */
async function holder(bin: string, dir: string): Promise<ChildProcess> {
  // -o: the command does not inherit the lock, so only the `copilot` process holds it.
  const script = `exec "$0" -o "$1/inuse.$$.hold" sh -c 'echo locked; exec sleep 600 >/dev/null'`;
  // Its own process group, so the sleep it leaves when killed goes with the group.
  const child = spawn('/bin/sh', ['-c', script, join(bin, 'copilot'), dir], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('holder did not lock in time')), 10_000);
    child.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('locked')) {
        clearTimeout(t);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error('holder exited')));
  });
  writeFileSync(join(dir, `inuse.${child.pid}.lock`), String(child.pid));
  return child;
}

const exited = (c: ChildProcess): Promise<void> => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

describe('copilot liveness with the real /proc/locks', { skip: process.platform !== 'linux' ? 'needs Linux /proc/locks' : false }, () => {
  const { home, cleanup } = tempHome('muster-copilot-real-');
  const children: ChildProcess[] = [];
  after(() => {
    for (const c of children) {
      try {
        if (c.pid) process.kill(-c.pid, 'SIGKILL');
      } catch {}
    }
    cleanup();
  });

  it('a held flock is live and ends with SIGTERM; a SIGKILLed holder leaves its files but is never live', async (t) => {
    if (!FLOCK) return t.skip('flock(1) is not installed: nothing here can hold an flock under the name copilot');
    const bin = join(home, 'bin');
    mkdirSync(bin);
    copyFileSync(FLOCK, join(bin, 'copilot'));
    const live = await holder(bin, copySession(home, TUI_ID));
    const killed = await holder(bin, copySession(home, PRINT_ID));
    children.push(live, killed);
    const src = createCopilotSource({ home, proc: createProc() });
    const before = new Map((await src.list()).map((s) => [s.id, s]));
    assert.equal(before.get(TUI_ID)?.live, true);
    assert.equal(before.get(TUI_ID)?.pid, live.pid);
    assert.equal(before.get(PRINT_ID)?.pid, killed.pid);

    killed.kill('SIGKILL');
    await exited(killed);
    const s = await src.get(PRINT_ID);
    assert.equal(s?.live, false, 'the kernel dropped the flock');
    assert.ok(existsSync(join(home, 'session-state', PRINT_ID, `inuse.${killed.pid}.lock`)), 'the lock file stays behind');
    assert.equal(src.diagnostics().staleRegistryFiles, 0, 'get() does not touch the listing counters');
    await src.list();
    assert.equal(src.diagnostics().staleRegistryFiles, 1);

    assert.deepEqual(await src.end(TUI_ID), { outcome: 'ended', signal: 'SIGTERM', pid: live.pid });
    await exited(live);
    assert.equal((await src.get(TUI_ID))?.live, false);
  });
});
