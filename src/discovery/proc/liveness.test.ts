import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createLivenessProbe } from './liveness.ts';
import type { LivenessFileOps } from './liveness.ts';
import { createLinuxProc } from './proc-linux.ts';

/** A /proc of statm files by pid: 'live', 'zombie' (zeros) or 'gone' (reads fail). */
function fakeStatm(state: Map<number, 'live' | 'zombie' | 'gone'>): LivenessFileOps & { opened: number; closed: number; reads: number } {
  const fds = new Map<number, number>();
  const ops = {
    opened: 0, closed: 0, reads: 0,
    open(path: string) {
      const pid = Number(path.split('/')[2]);
      if (state.get(pid) !== 'live') throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      fds.set(++ops.opened, pid);
      return ops.opened;
    },
    read(fd: number, buf: Buffer) {
      ops.reads++;
      const s = state.get(fds.get(fd) ?? -1);
      if (s === 'gone') throw Object.assign(new Error('ESRCH'), { code: 'ESRCH' });
      return buf.write(s === 'zombie' ? '0 0 0 0 0 0 0\n' : '105 50 43 5 0 39 0\n');
    },
    close: () => void ops.closed++,
  };
  return ops;
}

test('the full check once, then one read of a held statm per ask; a zombie or a vanished process reads as gone', () => {
  const state = new Map<number, 'live' | 'zombie' | 'gone'>([[10, 'live'], [11, 'live']]);
  let full = 0;
  const ops = fakeStatm(state);
  const probe = createLivenessProbe({ isAlive: (pid) => (full++, state.get(pid) === 'live') }, { procRoot: '/proc', ops });
  assert.equal(probe.isAlive(10), true);
  assert.equal(probe.isAlive(10), true);
  assert.equal(probe.isAlive(11), true);
  assert.deepEqual({ full, opened: ops.opened, reads: ops.reads }, { full: 2, opened: 2, reads: 1 });
  state.set(10, 'zombie');
  assert.equal(probe.isAlive(10), false, 'a zombie (tmux does not reap at once) is seen at the next ask');
  state.set(11, 'gone');
  assert.equal(probe.isAlive(11), false);
  assert.equal(ops.closed, 2, 'their descriptors are closed');
  assert.equal(probe.isAlive(10), false, 'and later asks make the full check');
  assert.equal(full, 3);
});

test('at most maxHeld descriptors; idle ones are closed; close() closes all', () => {
  const state = new Map<number, 'live' | 'zombie' | 'gone'>([[1, 'live'], [2, 'live'], [3, 'live']]);
  let now = 0;
  const ops = fakeStatm(state);
  const probe = createLivenessProbe({ isAlive: () => true }, { procRoot: '/proc', ops, maxHeld: 2, idleCloseMs: 1000, clock: () => now });
  for (const pid of [1, 2, 3]) probe.isAlive(pid);
  assert.equal(ops.opened, 2);
  now = 5000;
  for (let i = 0; i < 300; i++) probe.isAlive(3); // the idle sweep runs every 256 asks
  assert.ok(ops.closed >= 2, `idle descriptors closed (${ops.closed})`);
  probe.close();
  assert.equal(ops.closed, ops.opened);
});

test('without a /proc root every ask is the full check', () => {
  let n = 0;
  const probe = createLivenessProbe({ isAlive: () => (n++, true) }, { procRoot: null });
  probe.isAlive(1);
  probe.isAlive(1);
  assert.equal(n, 2);
});

test('real processes: a SIGKILLed child left a zombie, and a reaped one, are gone at the next ask', { skip: process.platform !== 'linux' && 'needs /proc' }, async () => {
  // The shell forks `sleep`, never waits for it, and lives on: the killed child stays a zombie.
  const sh = spawn('sh', ['-c', 'sleep 30 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const probe = createLivenessProbe(createLinuxProc());
  try {
    const zombie = Number(await new Promise<string>((r) => sh.stdout.once('data', (d: Buffer) => r(d.toString()))));
    assert.equal(probe.isAlive(zombie), true);
    assert.equal(probe.isAlive(zombie), true, 'from the held descriptor');
    process.kill(zombie, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(probe.isAlive(zombie), false, 'a zombie');
    assert.equal(probe.isAlive(sh.pid!), true);
    assert.equal(probe.isAlive(sh.pid!), true);
    sh.kill('SIGKILL');
    await new Promise((r) => sh.once('exit', r));
    assert.equal(probe.isAlive(sh.pid!), false, 'reaped');
  } finally {
    sh.kill('SIGKILL');
    probe.close();
  }
});
