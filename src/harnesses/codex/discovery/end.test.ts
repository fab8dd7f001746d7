import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { endThread, type EndRequest } from './end.ts';
import { lockPathFor } from './thread-locks.ts';

const HOME = '/nonexistent/codex-home';
const ID = '01a22c0c-79d9-7d20-9531-ee5488654809';
const EXEC = ['/usr/bin/codex', 'exec', '--skip-git-repo-check', 'hello'];

function request(proc: ReturnType<typeof createFakeProc>, pid: number, sleep: (ms: number) => Promise<void>, promptRecorded = (): boolean => true): EndRequest {
  return {
    id: ID, home: HOME, proc, plan: { kind: 'sigint', pid }, summary: null, daemon: null, controlSocket: '/nonexistent.sock',
    timeoutMs: 1000, sigintGraceMs: 500, readyWaitMs: 2000, sleep, promptRecorded,
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

  it('waits for the exec to take its prompt before its SIGINT (one sent earlier is lost)', async () => {
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: EXEC }], locks: [{ path: lockPathFor(HOME, ID), pids: [4242] }] });
    let slept = 0;
    let polls = 0;
    const r = await endThread(request(proc, 4242, async (ms) => {
      assert.deepEqual(proc.signals, [], 'nothing is sent before the prompt is recorded');
      slept += ms;
    }, () => ++polls > 3));
    assert.deepEqual(r, { outcome: 'ended', signal: 'SIGINT', pid: 4242 });
    assert.deepEqual(proc.signals.map((s) => s.signal), ['SIGINT']);
    assert.equal(slept, 300);
  });

  it('a prompt never recorded: SIGINT once the wait is over', async () => {
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: EXEC }], locks: [{ path: lockPathFor(HOME, ID), pids: [4242] }] });
    let slept = 0;
    const r = await endThread(request(proc, 4242, async (ms) => { slept += ms; }, () => false));
    assert.deepEqual(r, { outcome: 'ended', signal: 'SIGINT', pid: 4242 });
    assert.equal(slept, 2000);
  });

  it('an exec that ends by itself while its prompt is awaited is not signalled', async () => {
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: EXEC }], locks: [{ path: lockPathFor(HOME, ID), pids: [4242] }] });
    const r = await endThread(request(proc, 4242, async () => { proc.remove(4242); }, () => false));
    assert.equal(r.outcome, 'not_running');
    assert.deepEqual(proc.signals, []);
  });

  it('a SIGINT not acted on within the grace is followed by SIGTERM, never by a second SIGINT', async () => {
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: EXEC }], locks: [{ path: lockPathFor(HOME, ID), pids: [4242] }], exitOn: ['SIGTERM'] });
    let slept = 0;
    const r = await endThread(request(proc, 4242, async (ms) => { slept += ms; }));
    assert.deepEqual(r, { outcome: 'ended', signal: 'SIGTERM', pid: 4242 });
    assert.deepEqual(proc.signals.map((s) => [s.pid, s.signal]), [[4242, 'SIGINT'], [4242, 'SIGTERM']]);
    assert.equal(slept, 500, 'waited out the grace once; SIGTERM ended it at once');
  });

  it('a SIGINT acted on late: the wait stops as soon as the lock is released', async () => {
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: EXEC }], locks: [{ path: lockPathFor(HOME, ID), pids: [4242] }], exitOn: [] });
    let slept = 0;
    const r = await endThread(request(proc, 4242, async (ms) => {
      slept += ms;
      if (slept === 200) proc.remove(4242);
    }));
    assert.deepEqual(r, { outcome: 'ended', signal: 'SIGINT', pid: 4242 });
    assert.equal(proc.signals.length, 1);
    assert.equal(slept, 200);
  });

  it('a pid that no longer holds the lock, or is not codex exec, is never signalled', async () => {
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: ['/usr/bin/vim'] }], locks: [{ path: lockPathFor(HOME, ID), pids: [4242] }] });
    const r = await endThread(request(proc, 4242, async () => {}));
    assert.equal(r.outcome, 'not_running');
    assert.deepEqual(proc.signals, []);
  });
});
