// realLiveness against real processes (issue 13, point 7): a killed owner that its parent has not
// reaped yet is a zombie that kill(pid, 0) still finds; the lock must count it as dead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { realLiveness } from './operations.ts';

const linux = process.platform === 'linux';

test('a live process is alive, an unused pid and pid 0 are dead', () => {
  assert.equal(realLiveness(process.pid), 'alive');
  assert.equal(realLiveness(0), 'dead');
  assert.equal(realLiveness(-1), 'dead');
  assert.equal(realLiveness(2 ** 22 + 1), 'dead'); // above pid_max's ceiling
});

test('a zombie (exited, not reaped by a parent that never waits) is dead', { skip: linux ? false : 'needs /proc' }, async () => {
  // sh starts a child in the background, prints its pid, then becomes `sleep 5`, which never reaps it. The
  // child ends only once its parent is `sleep`: ending earlier, the shell (not yet exec'd) could reap it.
  const script = 'p=$$; (while [ "$(cat /proc/$p/comm)" != sleep ]; do sleep 0.02; done) & echo $!; exec sleep 5';
  const parent = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    let state = '';
    for (let i = 0; i < 250 && state !== 'Z'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      state = /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? '';
    }
    assert.equal(state, 'Z', 'the child is a zombie');
    assert.doesNotThrow(() => process.kill(pid, 0), 'kill(pid, 0) still finds it');
    assert.equal(realLiveness(pid), 'dead');
  } finally {
    parent.kill('SIGKILL');
  }
});
