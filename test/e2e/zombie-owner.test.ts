// Regression (issue 13, point 7): a daemon killed with -9 stays a zombie until its parent reaps it,
// and kill(pid, 0) still finds a zombie. With a parent that does not reap (here `sleep`, which never
// waits), `muster up` right after the kill used to see the lock as held (daemon_start_failed, the
// log saying already_running) and `muster down` waited for a process that had already exited.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BIN, envFor, isAlive, runCli, tempHome } from './kit.ts';

const linux = process.platform === 'linux';

/** `muster serve` as the child of a process that never reaps it; resolves with the daemon's pid. */
function serveUnderNonReapingParent(env: NodeJS.ProcessEnv): Promise<{ parent: ChildProcess; pid: number }> {
  const parent = spawn('sh', ['-c', '"$@" & exec sleep 120', 'sh', process.execPath, BIN, 'serve', '--port', '0', '--quiet'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 20_000);
    parent.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{') && out.includes('\n'));
      if (!line) return;
      clearTimeout(timer);
      resolve({ parent, pid: (JSON.parse(line) as { pid: number }).pid });
    });
  });
}

const procState = (pid: number): string => {
  try {
    return /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? '';
  } catch {
    return '';
  }
};

async function untilZombie(pid: number): Promise<void> {
  for (let i = 0; i < 200 && procState(pid) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(procState(pid), 'Z', 'the killed daemon is a zombie');
}

describe('a killed daemon that is still a zombie', { skip: linux ? false : 'needs /proc' }, () => {
  const t = tempHome('muster-e2e-zombie-');
  const env = envFor(t.home);
  const parents: ChildProcess[] = [];
  after(async () => {
    await runCli(['down'], env);
    for (const p of parents) p.kill('SIGKILL');
    t.cleanup();
  });

  it('`muster up` run within 0.3 s of kill -9 starts a new daemon', async () => {
    const { parent, pid } = await serveUnderNonReapingParent(env);
    parents.push(parent);
    process.kill(pid, 'SIGKILL');
    const killedAt = Date.now();
    await untilZombie(pid);
    const startedAfterMs = Date.now() - killedAt;
    assert.ok(startedAfterMs < 300, `up starts ${startedAfterMs} ms after the kill`);
    const up = await runCli(['up'], env);
    assert.equal(up.code, 0, up.stderr);
    assert.equal(up.json.alreadyRunning, false);
    assert.notEqual(up.json.pid, pid);
    assert.ok(isAlive(up.json.pid as number));
    assert.equal(procState(pid), 'Z', 'still a zombie when up succeeded');
    const down = await runCli(['down'], env);
    assert.equal(down.json.stopped, true, down.stderr);
  });

  it('`muster down` of a daemon whose parent does not reap it returns as soon as it has exited', async () => {
    const { parent, pid } = await serveUnderNonReapingParent(env);
    parents.push(parent);
    const t0 = Date.now();
    const down = await runCli(['down'], env, { timeoutMs: 20_000 });
    const ms = Date.now() - t0;
    assert.equal(down.code, 0, down.stderr);
    assert.equal(down.json.stopped, true);
    assert.equal(procState(pid), 'Z', 'exited, not reaped');
    assert.ok(ms < 5000, `down took ${ms} ms`);
  });
});
