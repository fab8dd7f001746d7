import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProc, descendants } from './index.ts';

let dir = '';
before(() => { dir = mkdtempSync(join(tmpdir(), 'muster-proc-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

interface FixtureProc {
  pid: number;
  comm?: string;
  ppid?: number;
  startTicks?: number;
  argv?: string[];
  cwd?: string;
  exe?: string;
  /** stat field 9 (PF_* flags). Default: 0x400000. */
  flags?: number;
  /** false: no stat file (the process exited while we listed). */
  stat?: boolean;
  /** false: stat present but cmdline gone (exited between the two reads). */
  cmdline?: boolean;
}

/** A directory shaped like /proc: <pid>/stat, cmdline, cwd and exe symlinks, plus stat (btime). */
function fixtureRoot(name: string, procs: FixtureProc[], btime = 1_796_000_000): string {
  const root = join(dir, name);
  mkdirSync(root);
  writeFileSync(join(root, 'stat'), `cpu  1 2 3 4\nintr 5\nbtime ${btime}\nprocesses 9\n`);
  mkdirSync(join(root, 'self'));
  for (const p of procs) {
    const pd = join(root, String(p.pid));
    mkdirSync(pd);
    if (p.stat !== false) {
      const comm = p.comm ?? 'x';
      writeFileSync(join(pd, 'stat'), `${p.pid} (${comm}) S ${p.ppid ?? 1} ${p.pid} ${p.pid} 34817 ${p.pid} ${p.flags ?? 0x400000} 1 0 0 0 0 0 0 0 20 0 1 0 ${p.startTicks ?? 500} 1 1 0\n`);
    }
    if (p.cmdline !== false) writeFileSync(join(pd, 'cmdline'), (p.argv ?? []).map((a) => a + '\0').join(''));
    if (p.cwd) symlinkSync(p.cwd, join(pd, 'cwd'));
    if (p.exe) symlinkSync(p.exe, join(pd, 'exe'));
  }
  return root;
}

describe('createProc on a fixture /proc root', () => {
  it('builds the table, tolerating odd comms, missing links and raced exits', () => {
    const root = fixtureRoot('basic', [
      { pid: 1, ppid: 0, comm: 'init', argv: ['/sbin/init'] },
      { pid: 100, comm: 'we) (ird', argv: ['node', '/x/pi', 'a b'], cwd: '/home/dev/project', exe: '/usr/bin/node (deleted)', startTicks: 12345 },
      { pid: 101, ppid: 100, comm: 'kworker/0:1', flags: 0x00208040, cwd: '/', exe: '/nonexistent' },
      { pid: 102, ppid: 100, stat: false },
      { pid: 103, ppid: 100, cmdline: false },
    ]);
    const proc = createProc({ root, platform: 'darwin' }); // an explicit root reads /proc on any platform
    const t = proc.snapshot();
    assert.deepEqual([...t.byPid.keys()].sort((a, b) => a - b), [1, 100, 101]);
    const p = t.byPid.get(100);
    assert.equal(p?.comm, 'we) (ird');
    assert.deepEqual(p?.argv, ['node', '/x/pi', 'a b']);
    assert.equal(p?.cwd, '/home/dev/project');
    assert.equal(p?.exe, '/usr/bin/node', 'a replaced binary keeps its path');
    assert.equal(p?.ttyNr, 34817);
    assert.equal(p?.startTicks, 12345);
    assert.equal(t.bootTimeMs, 1_796_000_000_000);
    assert.equal(p?.startedAtMs, 1_796_000_000_000 + 123_450);
    const k = t.byPid.get(101);
    assert.deepEqual(k?.argv, [], 'kernel threads have no argv');
    assert.equal(k?.cwd, null, 'kernel threads are not read beyond stat');
    assert.equal(k?.exe, null);
    assert.deepEqual(t.children.get(100), [101]);
    assert.deepEqual(descendants(t, 1), [100, 101]);
    assert.equal(proc.read(102), undefined);
    assert.equal(proc.read(103), undefined);
    assert.equal(proc.startTicks(100), 12345);
    assert.equal(proc.startTicks(102), null);
    assert.equal(proc.isAlive(100), true);
    assert.equal(proc.isAlive(99999), false);
    assert.deepEqual(proc.locks(), [], 'no locks file');
    assert.equal(proc.probeLock(join(dir, 'never-created.lock')), false, 'missing file: never claimed');
  });

  it('answers null for an existing file when there is no /proc/locks', () => {
    const root = fixtureRoot('nolocks', []);
    const f = join(dir, 'exists.lock');
    writeFileSync(f, '');
    assert.equal(createProc({ root }).probeLock(f), null);
  });

  it('matches a lock by inode and confirms the holder through its fd links', () => {
    const lockFile = join(dir, 'held.lock');
    writeFileSync(lockFile, '');
    const st = statSync(lockFile, { bigint: true });
    const root = fixtureRoot('locks', [{ pid: 200 }, { pid: 201 }, { pid: 202 }]);
    mkdirSync(join(root, '200', 'fd'));
    symlinkSync('/dev/null', join(root, '200', 'fd', '0'));
    symlinkSync(lockFile, join(root, '200', 'fd', '7'));
    mkdirSync(join(root, '201', 'fd'));
    // Wrong device on purpose (as btrfs or overlayfs may print): only the fd link can confirm.
    writeFileSync(join(root, 'locks'), [
      `1: FLOCK  ADVISORY  WRITE 200 ff:ff:${st.ino} 0 EOF`,
      `2: FLOCK  ADVISORY  WRITE 201 ff:ff:${st.ino} 0 EOF`,
      `3: -> FLOCK  ADVISORY  WRITE 202 ff:ff:${st.ino} 0 EOF`,
    ].join('\n') + '\n');
    const proc = createProc({ root });
    assert.equal(proc.locks().length, 3);
    assert.equal(proc.probeLock(lockFile), true);
    assert.deepEqual(proc.lockHolders(lockFile), [200], '201 has no such fd; 202 only waits');
    rmSync(join(root, '200', 'fd', '7'));
    assert.equal(proc.probeLock(lockFile), false, 'an inode collision on another device is not a hit');
    assert.deepEqual(proc.lockHolders(lockFile), []);
  });
});

function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  return new Promise((resolve) => {
    const tick = (): void => {
      if (cond()) resolve(true);
      else if (Date.now() > until) resolve(false);
      else setTimeout(tick, 20);
    };
    tick();
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

describe('createProc on the real /proc', { skip: process.platform !== 'linux' && 'needs Linux /proc' }, () => {
  const proc = createProc();

  it('reads a process\'s environment as it started; a gone process has none', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { env: { MUSTER_PROBE: 'a=b', EMPTY: '' }, stdio: 'ignore' });
    try {
      assert.ok(child.pid);
      assert.ok(await waitFor(() => proc.environ?.(child.pid as number)?.get('MUSTER_PROBE') === 'a=b', 5000));
      assert.equal(proc.environ?.(child.pid)?.get('EMPTY'), '');
    } finally {
      child.kill('SIGKILL');
    }
    assert.equal(proc.environ?.(2 ** 22 + 7), null);
  });

  it('sees a spawned child with argv, cwd, exe, start ticks and parent', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'muster-proc-cwd-'));
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', 'arg with space'], { cwd, stdio: 'ignore' });
    try {
      assert.ok(child.pid);
      assert.ok(await waitFor(() => proc.read(child.pid as number)?.argv.includes('arg with space') === true, 5000), 'exec finished');
      const t = proc.snapshot();
      const p = t.byPid.get(child.pid);
      assert.equal(p?.ppid, process.pid);
      assert.equal(p?.cwd, cwd);
      assert.equal(p?.exe, process.execPath);
      assert.ok(descendants(t, process.pid).includes(child.pid));
      assert.equal(proc.startTicks(child.pid), p?.startTicks);
      assert.ok(Math.abs((p?.startedAtMs ?? 0) - Date.now()) < 10_000, 'start time is about now');
      assert.equal(proc.isAlive(child.pid), true);
      assert.equal(proc.signal(child.pid, 'SIGTERM'), true);
      await exited(child);
      assert.equal(proc.isAlive(child.pid), false);
      assert.equal(proc.startTicks(child.pid), null);
      assert.equal(proc.signal(child.pid, 'SIGTERM'), false, 'ESRCH is false');
    } finally {
      child.kill('SIGKILL');
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('refuses pids that would address process groups', () => {
    assert.equal(proc.signal(0, 'SIGTERM'), false);
    assert.equal(proc.signal(-1, 'SIGTERM'), false);
    assert.equal(proc.isAlive(0), false);
  });

  it('takes a snapshot of the whole table well under 50 ms', () => {
    proc.snapshot(); // warm up
    // The best of 10 runs: other work on a shared 2-core machine inflates a median, not a best case.
    let best = Infinity;
    let size = 0;
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      const t = proc.snapshot();
      best = Math.min(best, performance.now() - t0);
      size = t.byPid.size;
      assert.ok(t.byPid.has(process.pid));
    }
    assert.ok(best < 50, `best ${best.toFixed(1)} ms for ${size} processes`);
  });
});

it('a zombie (exited, not yet reaped) is not alive, has no start time and is not readable', async () => {
  const proc = createProc();
  // The shell forks `sleep`, never waits for it, and lives on: the killed child stays a zombie.
  const parent = spawn('bash', ['-c', 'sleep 60 & echo $!; exec sleep 61'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    assert.equal(proc.isAlive(pid), true);
    assert.ok(proc.startTicks(pid) !== null);
    process.kill(pid, 'SIGKILL');
    const t0 = Date.now();
    while (proc.isAlive(pid) && Date.now() - t0 < 3000) await new Promise((r) => setTimeout(r, 20));
    assert.equal(proc.isAlive(pid), false, 'a zombie is not alive');
    assert.equal(proc.startTicks(pid), null);
    assert.equal(proc.read(pid), undefined);
  } finally {
    parent.kill('SIGKILL');
  }
});
