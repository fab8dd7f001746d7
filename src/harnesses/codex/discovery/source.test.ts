import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, statSync, symlinkSync, utimesSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createCodexSource } from './source.ts';
import { startFakeAppServer } from './fake-app-server.test-support.ts';
import { DAEMON_ARGV, NATIVE, makeCodexHome, touchLock, withRealInodes } from './source-helpers.test-support.ts';
import { execRollout, modelSwitchRollout, rec, writeRollout } from './rollout-fixtures.test-support.ts';

const A = '01a22b39-94a8-7390-a4d1-3b90055e3b40';
const B = '01a22b42-6e14-7f62-8c74-d16f2d172825';
const C = '01a22b4e-c5a5-74f1-abfa-b0a168462396';
const homes: (() => void)[] = [];
after(() => { for (const c of homes) c(); });
const newHome = (): string => { const h = makeCodexHome(); homes.push(h.cleanup); return h.home; };
const noDaemon = <T>(): Promise<T> => Promise.reject(new Error('no daemon in this test'));

describe('codex source: dormant sessions', () => {
  it('lists an exec rollout as ended, with title, tokens, model, cwd and resume argv', async () => {
    const home = newHome();
    writeRollout(home, A, execRollout(A, '/home/dev/project', 'say hi'));
    const src = createCodexSource({ home, proc: withRealInodes(createFakeProc(), home), withDaemon: noDaemon });
    const [s, ...rest] = await src.list();
    assert.equal(rest.length, 0);
    assert.ok(s);
    assert.equal(s.id, A);
    assert.equal(s.live, false);
    assert.equal(s.status, 'ended');
    assert.equal(s.title, 'say hi');
    assert.equal(s.cwd, '/home/dev/project');
    assert.equal(s.branch, 'master');
    assert.equal(s.model, 'fake-model');
    assert.deepEqual(s.tokens, { input: 103, output: 7, cacheRead: 0, cacheWrite: 0 });
    assert.deepEqual(s.resumeArgv, ['codex', 'resume', A]);
    assert.equal(s.startedAt?.slice(0, 4), '2026');
    assert.equal(s.canEnd, false);
  });

  it('prices each turn at its own model after a model switch (codex exec -m … resume), not all at the last one', async () => {
    const home = newHome();
    writeRollout(home, A, modelSwitchRollout(A));
    const src = createCodexSource({ home, proc: createFakeProc(), withDaemon: noDaemon });
    const s = await src.get(A);
    assert.equal(s?.model, 'gpt-5-mini');
    // gpt-5-codex: 100 × $1.25/M + 10 × $10/M = $0.000225; gpt-5-mini: 100 × $0.25/M + 10 × $2/M = $0.000045.
    assert.equal(s?.costUsd, 0.00027);
  });

  it('last activity is the last record\'s time, not the rollout\'s mtime (issue 13, point 14)', async () => {
    const home = newHome();
    const lines = execRollout(A);
    const file = writeRollout(home, A, lines);
    utimesSync(file, new Date(), new Date()); // copied or restored just now
    const last = (JSON.parse(lines.at(-1) ?? '{}') as { timestamp: string }).timestamp;
    const src = createCodexSource({ home, proc: createFakeProc(), withDaemon: noDaemon });
    assert.equal((await src.get(A))?.lastActivityAt, last);
  });

  it('takes the title from session_index.jsonl (latest name wins) and lists archived rollouts', async () => {
    const home = newHome();
    writeRollout(home, A, execRollout(A));
    writeRollout(home, B, execRollout(B, '/p', 'first prompt'), { dir: join(home, 'archived_sessions') });
    writeFileSync(join(home, 'session_index.jsonl'), [
      JSON.stringify({ id: A, thread_name: 'old name', updated_at: '2026-11-30T06:52:42Z' }),
      JSON.stringify({ id: A, thread_name: 'Greet the fake user', updated_at: '2026-11-30T06:53:42Z' }),
      '{broken',
    ].join('\n') + '\n');
    const src = createCodexSource({ home, proc: createFakeProc(), withDaemon: noDaemon });
    assert.equal((await src.get(A))?.title, 'Greet the fake user');
    assert.equal((await src.get(B))?.title, 'first prompt');
  });

  it('keeps weird cwds verbatim and skips a directory named like a rollout', async () => {
    const home = newHome();
    const weird = '/home/dev/my project/ünï\ncode $(x)';
    writeRollout(home, A, execRollout(A, weird));
    mkdirSync(join(home, 'sessions', '2026', '11', '30', `rollout-2026-11-30T00-00-00-${B}.jsonl`));
    const src = createCodexSource({ home, proc: createFakeProc(), withDaemon: noDaemon });
    const list = await src.list();
    assert.deepEqual(list.map((s) => s.id), [A]);
    assert.equal(list[0]?.cwd, weird);
    assert.equal(src.diagnostics().filesSkipped, 1);
  });

  it('a file named like a rollout without a Codex record, or a link leading outside CODEX_HOME, is not a session (issue 13, point 9)', async () => {
    const home = newHome();
    const dir = join(home, 'sessions', '2026', '11', '30');
    writeRollout(home, A, execRollout(A));
    writeFileSync(join(dir, `rollout-2026-11-30T00-00-00-${B}.jsonl`), 'garbage\n{"timestamp":"2026-11-30T00:00:00Z"}\n');
    symlinkSync('/etc/passwd', join(dir, `rollout-2026-11-30T00-00-01-${C}.jsonl`));
    const elsewhere = newHome();
    const D = '01a22b50-0000-7000-8000-00000000000d';
    symlinkSync(writeRollout(elsewhere, D, execRollout(D)), join(dir, `rollout-2026-11-30T00-00-02-${D}.jsonl`));
    const E = '01a22b51-0000-7000-8000-00000000000e';
    symlinkSync(writeRollout(home, E, execRollout(E), { dir: join(home, 'backup') }), join(dir, `rollout-2026-11-30T00-00-03-${E}.jsonl`));
    const src = createCodexSource({ home, proc: createFakeProc(), withDaemon: noDaemon });
    assert.deepEqual((await src.list()).map((s) => s.id).sort(), [A, E].sort(), 'a link inside CODEX_HOME is followed');
    const d = src.diagnostics();
    assert.equal(d.filesSkipped, 3, d.errors.join('\n'));
    assert.equal(d.errors.filter((e) => e.includes('leads outside')).length, 2);
  });

  it('reads names and the native goal from Codex SQLite stores read-only, leaving them untouched', async () => {
    const home = newHome();
    writeRollout(home, A, execRollout(A, '/p', 'RUNCMD: env'));
    const state = new Database(join(home, 'state_5.sqlite'));
    state.exec('CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT, cwd TEXT, title TEXT, name TEXT, model TEXT, git_branch TEXT, archived INTEGER, updated_at_ms INTEGER)');
    state.prepare('INSERT INTO threads VALUES (?,?,?,?,?,?,?,?,?)').run(A, '/x', '/p', 'RUNCMD: env', 'queued message from supervisor', 'fake-model', 'master', 0, 1796021983923);
    state.close();
    const goals = new Database(join(home, 'goals_1.sqlite'));
    goals.exec('CREATE TABLE thread_goals (thread_id TEXT PRIMARY KEY, goal_id TEXT, objective TEXT, status TEXT, token_budget INTEGER, tokens_used INTEGER)');
    goals.prepare('INSERT INTO thread_goals VALUES (?,?,?,?,?,?)').run(A, 'g1', 'Make the fake test suite pass', 'budget_limited', 50000, 50175);
    goals.close();
    const before = readdirSync(home).sort();
    const mtime = statSync(join(home, 'state_5.sqlite')).mtimeMs;
    const src = createCodexSource({ home, proc: createFakeProc(), withDaemon: noDaemon });
    assert.equal((await src.get(A))?.title, 'queued message from supervisor');
    assert.deepEqual(src.goal(A), { objective: 'Make the fake test suite pass', status: 'budget_limited', tokenBudget: 50000, tokensUsed: 50175 });
    assert.equal(src.goal(B), null);
    assert.deepEqual(readdirSync(home).sort(), before, 'no -wal/-shm/journal created');
    assert.equal(statSync(join(home, 'state_5.sqlite')).mtimeMs, mtime);
  });

  it('refuses bad ids everywhere', async () => {
    const src = createCodexSource({ home: newHome(), proc: createFakeProc(), withDaemon: noDaemon });
    assert.equal(await src.get('../../etc'), undefined);
    assert.equal(src.resumeArgv('$(touch /tmp/x)'), null);
    assert.equal((await src.end('nope')).outcome, 'not_running');
  });
});

describe('codex source: liveness from thread-writer locks', () => {
  it('an exec holding its lock is live and working; end sends SIGINT to it', async () => {
    const home = newHome();
    writeRollout(home, A, [rec.meta(A), rec.taskStarted(), rec.userItem('slow'), rec.functionCall('call_1')]);
    const lock = touchLock(home, A);
    const fake = createFakeProc({ processes: [{ pid: 4242, argv: [NATIVE, 'exec', 'slow'], exe: NATIVE, cwd: '/home/dev/project' }], locks: [{ path: lock, pids: [4242] }] });
    const src = createCodexSource({ home, proc: withRealInodes(fake, home), withDaemon: noDaemon });
    const s = await src.get(A);
    assert.ok(s?.live);
    assert.equal(s.pid, 4242);
    assert.equal(s.status, 'working');
    assert.equal(s.canEnd, true);
    assert.deepEqual(await src.end(A), { outcome: 'ended', signal: 'SIGINT', pid: 4242 });
    assert.deepEqual(fake.signals, [{ pid: 4242, signal: 'SIGINT', delivered: true }]);
  });

  it('an embedded TUI holding its lock is its verified process, which Muster types into but never signals', async () => {
    const home = newHome();
    writeRollout(home, A, [rec.meta(A), rec.taskStarted(), rec.taskComplete()]);
    const lock = touchLock(home, A);
    const fake = createFakeProc({ processes: [{ pid: 4343, argv: [NATIVE, '--no-daemon'], exe: NATIVE, cwd: '/home/dev/project' }], locks: [{ path: lock, pids: [4343] }] });
    const src = createCodexSource({ home, proc: withRealInodes(fake, home), withDaemon: noDaemon });
    const s = await src.get(A);
    assert.ok(s?.live);
    assert.equal(s.pid, 4343);
    assert.equal(s.canEnd, false);
    assert.equal(s.processVerified, true);
  });

  it('a SIGKILL leftover (lock file, no flock) is dormant and counted as stale', async () => {
    const home = newHome();
    writeRollout(home, A, [rec.meta(A), rec.taskStarted()]);
    touchLock(home, A);
    const src = createCodexSource({ home, proc: withRealInodes(createFakeProc(), home), withDaemon: noDaemon });
    const s = await src.get(A);
    assert.equal(s?.live, false);
    assert.equal(s?.status, 'ended');
    assert.equal(src.diagnostics().staleRegistryFiles, 1);
    assert.equal((await src.end(A)).outcome, 'not_running');
  });

  it('never signals a pid reused by another program', async () => {
    const home = newHome();
    writeRollout(home, A, execRollout(A));
    const lock = touchLock(home, A);
    const fake = createFakeProc({ processes: [{ pid: 5000, argv: [NATIVE, 'exec', 'x'], exe: NATIVE }], locks: [{ path: lock, pids: [5000] }] });
    const proc = withRealInodes(fake, home);
    const src = createCodexSource({ home, proc, withDaemon: noDaemon });
    assert.equal((await src.get(A))?.live, true);
    // The holder dies and its pid is taken by an editor that happens to lock the same path.
    fake.remove(5000);
    fake.add({ pid: 5000, argv: ['vim', lock], exe: '/usr/bin/vim', startTicks: 99999 });
    fake.holdLock(lock, 5000);
    const s = await src.get(A);
    assert.equal(s?.canEnd, false, 'a non-Codex holder cannot be ended');
    assert.notEqual((await src.end(A)).outcome, 'ended');
    assert.deepEqual(fake.signals, []);
  });

  it('daemon thread claimed by `codex resume <id>`: exact status from thread/read (waiting on approval); end interrupts and detaches the TUI', async () => {
    const home = newHome();
    writeRollout(home, C, [rec.meta(C, '/p', 'vscode'), rec.taskStarted(undefined, 'user'), rec.userItem('touch x'), rec.functionCall('call_9')]);
    const lock = touchLock(home, C);
    const fake = createFakeProc({
      processes: [{ pid: 2372, argv: DAEMON_ARGV, exe: DAEMON_ARGV[0] }, { pid: 2337, argv: [NATIVE, 'resume', C], exe: NATIVE, cwd: '/p' }],
      locks: [{ path: lock, pids: [2372] }],
    });
    const sock = join(home, 'ctl.sock');
    const daemon = await startFakeAppServer(sock);
    daemon.threads.set(C, { type: 'active', activeFlags: ['waitingOnApproval'] });
    try {
      const src = createCodexSource({ home, proc: withRealInodes(fake, home), controlSocket: sock });
      const s = await src.get(C);
      assert.ok(s?.live);
      assert.equal(s.pid, 2337);
      assert.deepEqual(s.pids, [2337, 2372]);
      assert.equal(s.status, 'waiting');
      assert.equal(s.waitingFor, 'approval: exec_command');
      assert.equal(s.canEnd, true);
      assert.deepEqual(await src.end(C), { outcome: 'ended', signal: 'SIGTERM', pid: 2337 });
      assert.ok(daemon.calls.some((c) => c.method === 'turn/interrupt'));
      assert.ok(!daemon.calls.some((c) => /resume|subscribe/.test(c.method)), 'never subscribes');
      assert.deepEqual(fake.signals.map((x) => [x.pid, x.signal]), [[2337, 'SIGTERM']]);
    } finally { await daemon.close(); }
  });

  it('a working-directory guess is live but cannot be ended; a detached idle daemon thread is dormant; a detached running one stays live', async () => {
    const home = newHome();
    writeRollout(home, A, [rec.meta(A, '/p', 'vscode'), rec.taskStarted(), rec.taskComplete()]);
    writeRollout(home, B, [rec.meta(B, '/q', 'vscode'), rec.taskStarted()]);
    writeRollout(home, C, [rec.meta(C, '/r', 'vscode'), rec.taskStarted(), rec.taskComplete()]);
    const locks = [A, B, C].map((id) => ({ path: touchLock(home, id), pids: [2372] }));
    const fake = createFakeProc({
      processes: [{ pid: 2372, argv: DAEMON_ARGV, exe: DAEMON_ARGV[0] }, { pid: 3000, argv: [NATIVE], exe: NATIVE, cwd: '/p', startedAtMs: 1000 }],
      locks,
    });
    const sock = join(home, 'ctl.sock');
    const daemon = await startFakeAppServer(sock);
    daemon.threads.set(A, { type: 'idle' });
    daemon.threads.set(B, { type: 'active', activeFlags: [] });
    daemon.threads.set(C, { type: 'idle' });
    try {
      const src = createCodexSource({ home, proc: withRealInodes(fake, home), controlSocket: sock });
      const [a, b, c] = await Promise.all([src.get(A), src.get(B), src.get(C)]);
      assert.equal(a?.live, true);
      assert.equal(a?.status, 'idle');
      assert.equal(a?.canEnd, false);
      assert.equal(a?.processVerified, false, 'a directory guess is not this thread\'s process: never typed into');
      assert.equal((await src.end(A)).outcome, 'unsupported');
      assert.equal(b?.live, true, 'turn still running in the daemon');
      assert.equal(b?.status, 'working');
      assert.equal(b?.pid, 2372);
      assert.equal(c?.live, false);
      assert.equal(c?.status, 'ended');
      assert.deepEqual(fake.signals, []);
    } finally { await daemon.close(); }
  });

  it('a TUI thread not yet prompted (no rollout) is claimed by cwd through the daemon, and listed live', async () => {
    const home = newHome();
    const lock = touchLock(home, B);
    const fake = createFakeProc({
      processes: [
        { pid: 9798, argv: ['node', '/x/node_modules/.bin/codex'], exe: '/usr/bin/node', cwd: '/p', startedAtMs: 1000 },
        { pid: 9827, ppid: 9798, argv: [NATIVE], exe: NATIVE, cwd: '/p', startedAtMs: 1010 },
        { pid: 10167, ppid: 9827, argv: DAEMON_ARGV, exe: DAEMON_ARGV[0] },
      ],
      locks: [{ path: lock, pids: [10167] }],
    });
    const sock = join(home, 'ctl.sock');
    const daemon = await startFakeAppServer(sock);
    daemon.threads.set(B, { type: 'idle', cwd: '/p' });
    try {
      const src = createCodexSource({ home, proc: withRealInodes(fake, home), controlSocket: sock });
      const s = await src.get(B);
      assert.ok(s?.live);
      assert.equal(s.cwd, '/p');
      assert.equal(s.title, '');
      assert.deepEqual(s.pids, [9798, 9827, 10167]);
      assert.equal(s.status, 'idle');
    } finally { await daemon.close(); }
  });

  it('an unreachable daemon falls back to the rollout tail and records the error', async () => {
    const home = newHome();
    writeRollout(home, A, [rec.meta(A, '/p', 'vscode'), rec.taskStarted()]);
    const lock = touchLock(home, A);
    const fake = createFakeProc({ processes: [{ pid: 2372, argv: DAEMON_ARGV, exe: DAEMON_ARGV[0] }, { pid: 2337, argv: [NATIVE, 'resume', A], exe: NATIVE }], locks: [{ path: lock, pids: [2372] }] });
    const src = createCodexSource({ home, proc: withRealInodes(fake, home), controlSocket: join(home, 'missing.sock'), daemonTimeoutMs: 300 });
    const s = await src.get(A);
    assert.equal(s?.status, 'working');
    assert.ok(src.diagnostics().errors.some((e) => e.includes('missing.sock')));
  });
});
