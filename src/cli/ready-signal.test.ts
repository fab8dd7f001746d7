import assert from 'node:assert/strict';
import { fstatSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { READY_FD_ENV, signalReady, takeReadyFd } from './ready-signal.ts';

describe('ready signal', () => {
  it('takes the fd out of the environment, and accepts only fds above stdio', () => {
    const env: NodeJS.ProcessEnv = { [READY_FD_ENV]: '3', OTHER: 'x' };
    assert.equal(takeReadyFd(env), 3);
    assert.deepEqual(env, { OTHER: 'x' }, 'no child the daemon starts inherits the name');
    for (const bad of [undefined, '', '2', '-1', '3.5', 'abc']) assert.equal(takeReadyFd({ [READY_FD_ENV]: bad }), null, String(bad));
  });

  it('writes one JSON line with the pid and closes the fd; no fd, nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'muster-ready-'));
    try {
      const file = join(dir, 'ready');
      const fd = openSync(file, 'w');
      signalReady(fd, 4242);
      assert.throws(() => fstatSync(fd), /EBADF/, 'the fd is closed after the line');
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { ready: true, pid: 4242 });
      signalReady(null, 4242);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
