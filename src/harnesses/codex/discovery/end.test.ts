import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { endThread, type EndRequest } from './end.ts';
import { lockPathFor } from './thread-locks.ts';

const HOME = '/nonexistent/codex-home';
const ID = '01a22c0c-79d9-7d20-9531-ee5488654809';
const EXEC = ['/usr/bin/codex', 'exec', '--skip-git-repo-check', 'hello'];

function request(proc: ReturnType<typeof createFakeProc>, pid: number, sleep: (ms: number) => Promise<void>): EndRequest {
  return {
    id: ID, home: HOME, proc, plan: { kind: 'sigint', pid }, summary: null, daemon: null, controlSocket: '/nonexistent.sock',
    timeoutMs: 1000, sigintGraceMs: 500, sleep,
    withDaemon: () => Promise.reject(new Error('no daemon in this test')),
  };
}

describe('codex end: exec holder', () => {
  it('one SIGINT when the process lets go of its lock', async () => {
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: EXEC }], locks: [{ path: lockPathFor(HOME, ID), pids: [4242] }] });
    let slept = 0;
    const r = await endThread(request(proc, 4242, async (ms) => { slept += ms; }));
    assert.deepEqual(r, { outcome: 'ended', signal: 'SIGINT', pid: 4242 });
    assert.deepEqual(proc.signals.map((s) => s.signal), ['SIGINT']);
    assert.equal(slept, 0, 'the lock was gone at once: no waiting');
  });

  it('a SIGINT that was not acted on within the grace is sent once more, never a third time', async () => {
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: EXEC }], locks: [{ path: lockPathFor(HOME, ID), pids: [4242] }], exitOn: [] });
    let slept = 0;
    const r = await endThread(request(proc, 4242, async (ms) => { slept += ms; }));
    assert.equal(r.outcome, 'ended');
    assert.deepEqual(proc.signals.map((s) => [s.pid, s.signal]), [[4242, 'SIGINT'], [4242, 'SIGINT']]);
    assert.equal(slept, 1000, 'waited out the grace twice');
  });

  it('the second SIGINT lands: the wait stops as soon as the lock is released', async () => {
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: EXEC }], locks: [{ path: lockPathFor(HOME, ID), pids: [4242] }], exitOn: [] });
    let slept = 0;
    const r = await endThread(request(proc, 4242, async (ms) => {
      slept += ms;
      if (proc.signals.length === 2) proc.remove(4242);
    }));
    assert.equal(r.outcome, 'ended');
    assert.equal(proc.signals.length, 2);
    assert.equal(slept, 600);
  });

  it('a pid that no longer holds the lock, or is not codex exec, is never signalled', async () => {
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: ['/usr/bin/vim'] }], locks: [{ path: lockPathFor(HOME, ID), pids: [4242] }] });
    const r = await endThread(request(proc, 4242, async () => {}));
    assert.equal(r.outcome, 'not_running');
    assert.deepEqual(proc.signals, []);
  });
});
