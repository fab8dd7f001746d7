// `muster send` to Codex threads the shared app-server daemon holds: `turn/start` over its control
// socket (the fake app-server), refused as busy while a turn runs; exec and embedded-TUI threads have
// no such channel.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createCodexSource } from './source.ts';
import { promptDaemonThread } from './prompt.ts';
import { withAppServer } from './app-server-client.ts';
import { startFakeAppServer } from './fake-app-server.test-support.ts';
import type { FakeAppServer } from './fake-app-server.test-support.ts';
import { DAEMON_ARGV, NATIVE, makeCodexHome, touchLock, withRealInodes } from './source-helpers.test-support.ts';
import { execRollout, rec, writeRollout } from './rollout-fixtures.test-support.ts';

const A = '01a22b39-94a8-7390-a4d1-3b90055e3b40';
const B = '01a22b42-6e14-7f62-8c74-d16f2d172825';
const homes: (() => void)[] = [];
const daemons: FakeAppServer[] = [];
after(async () => {
  for (const d of daemons) await d.close();
  for (const c of homes) c();
});
const noDaemon = <T>(): Promise<T> => Promise.reject(new Error('no daemon in this test'));
const TEXT = 'line one\n$(touch x) `id` "quoted"';

/** A CODEX_HOME whose daemon holds thread A (claimed by `codex resume A`) and B (no TUI: lingering). */
async function daemonHome(a: { type: string; activeFlags?: string[]; turnId?: string }, b = { type: 'idle' }) {
  const h = makeCodexHome();
  homes.push(h.cleanup);
  writeRollout(h.home, A, [rec.meta(A, '/p', 'vscode'), rec.taskStarted(), rec.taskComplete()]);
  writeRollout(h.home, B, [rec.meta(B, '/q', 'vscode'), rec.taskStarted(), rec.taskComplete()]);
  const fake = createFakeProc({
    processes: [{ pid: 2372, argv: DAEMON_ARGV, exe: DAEMON_ARGV[0] }, { pid: 2337, argv: [NATIVE, 'resume', A], exe: NATIVE, cwd: '/p' }],
    locks: [{ path: touchLock(h.home, A), pids: [2372] }, { path: touchLock(h.home, B), pids: [2372] }],
  });
  const sock = join(h.home, 'ctl.sock');
  const daemon = await startFakeAppServer(sock);
  daemons.push(daemon);
  daemon.threads.set(A, a);
  daemon.threads.set(B, b);
  const src = createCodexSource({ home: h.home, proc: withRealInodes(fake, h.home), controlSocket: sock, promptTimeoutMs: 300 });
  return { src, daemon, sock, fake };
}

const turnStarts = (d: FakeAppServer) => d.calls.filter((c) => c.method === 'turn/start').map((c) => c.params);

describe('codex prompt through the app-server daemon', () => {
  it('an idle daemon thread a TUI claims is promptable: turn/start with the text verbatim, no subscription, nothing signalled', async () => {
    const { src, daemon, fake } = await daemonHome({ type: 'idle' });
    const s = await src.get(A);
    assert.equal(s?.live, true);
    assert.equal(s?.promptable, true);
    assert.deepEqual(await src.prompt?.(A, TEXT), { ok: true, via: 'codex app-server turn/start' });
    assert.deepEqual(turnStarts(daemon), [{ threadId: A, input: [{ type: 'text', text: TEXT }] }]);
    assert.ok(!daemon.calls.some((c) => /resume|subscribe/.test(c.method)), 'never loads or subscribes');
    assert.deepEqual(fake.signals, []);
  });

  it('an idle thread no TUI claims (lingering, listed dormant) still takes the prompt from the daemon', async () => {
    const { src, daemon } = await daemonHome({ type: 'idle' });
    const s = await src.get(B);
    assert.equal(s?.live, false);
    assert.equal(s?.promptable, true);
    assert.equal((await src.prompt?.(B, 'go on'))?.ok, true);
    assert.deepEqual(turnStarts(daemon), [{ threadId: B, input: [{ type: 'text', text: 'go on' }] }]);
  });

  it('a thread in a turn is refused as busy: turn/start would steer the text into the running turn, so it is never called', async () => {
    const { src, daemon } = await daemonHome({ type: 'active', activeFlags: [], turnId: 'turn-running' });
    assert.equal((await src.get(A))?.status, 'working');
    const r = await src.prompt?.(A, 'not now');
    assert.equal(r?.ok, false);
    assert.equal(r?.ok === false && r.reason, 'busy');
    assert.match(r?.ok === false ? r.message : '', /in a turn.*does not queue/);
    assert.deepEqual(turnStarts(daemon), []);
  });

  it('a thread waiting on an approval is busy too, with what it waits for', async () => {
    const { src, daemon } = await daemonHome({ type: 'active', activeFlags: ['waitingOnApproval'], turnId: 't' });
    const r = await src.prompt?.(A, 'yes');
    assert.equal(r?.ok === false && r.reason, 'busy');
    assert.match(r?.ok === false ? r.message : '', /waiting for you/);
    assert.deepEqual(turnStarts(daemon), []);
  });

  it('a thread the daemon unloaded since the listing has no channel (the caller may resume it); nothing is sent', async () => {
    const { daemon, sock } = await daemonHome({ type: 'idle' });
    daemon.threads.delete(A);
    const r = await promptDaemonThread({ id: A, text: 'x', controlSocket: sock, timeoutMs: 300, withDaemon: (p, fn, t) => withAppServer(p, fn, { timeoutMs: t }) });
    assert.equal(r.ok === false && r.reason, 'no_channel');
    assert.deepEqual(turnStarts(daemon), []);
  });

  it('a turn/start the daemon took but never answered is refused, never sent a second way', async () => {
    const { src, daemon } = await daemonHome({ type: 'idle' });
    daemon.silent.add('turn/start');
    const r = await src.prompt?.(A, 'x');
    assert.equal(r?.ok === false && r.reason, 'refused');
    assert.match(r?.ok === false ? r.message : '', /did not confirm/);
  });

  it('exec and embedded-TUI threads are not promptable, and their prompt never touches a daemon', async () => {
    const h = makeCodexHome();
    homes.push(h.cleanup);
    writeRollout(h.home, A, execRollout(A));
    writeRollout(h.home, B, [rec.meta(B), rec.taskStarted(), rec.taskComplete()]);
    const fake = createFakeProc({
      processes: [{ pid: 5000, argv: [NATIVE, 'exec', 'x'], exe: NATIVE }, { pid: 4343, argv: [NATIVE, '--no-daemon'], exe: NATIVE, cwd: '/home/dev/project' }],
      locks: [{ path: touchLock(h.home, A), pids: [5000] }, { path: touchLock(h.home, B), pids: [4343] }],
    });
    const src = createCodexSource({ home: h.home, proc: withRealInodes(fake, h.home), withDaemon: noDaemon });
    for (const id of [A, B]) {
      const s = await src.get(id);
      assert.equal(s?.live, true);
      assert.equal(s?.promptable, false);
      const r = await src.prompt?.(id, 'x');
      assert.equal(r?.ok === false && r.reason, 'no_channel');
    }
    assert.equal((await src.prompt?.('not-a-uuid', 'x'))?.ok, false);
  });

  it('an unreachable daemon: the thread is not promptable, and a prompt has no channel', async () => {
    const { src, daemon } = await daemonHome({ type: 'idle' });
    await daemon.close();
    assert.equal((await src.get(A))?.promptable, false);
    assert.equal((await src.prompt?.(A, 'x'))?.ok === false, true);
  });
});
