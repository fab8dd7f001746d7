// `muster new` end to end (issue 21, points 1, 2 and 4): the built CLI and a real daemon open new
// sessions in a private tmux server through the real wrapper; the harness commands on PATH are stand-ins
// that record the directory, argv (NUL-separated, so newlines survive) and environment they got.
// Worktrees are made by real git. Acceptance: bad dir → 400, bad branch names refused, hostile name and
// prompt text never run through a shell (it arrives verbatim or is refused with 413).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, runCli, splitBoardUrl, startServe, tempHome, until, waitExit } from './kit.ts';

const HOSTILE = '$(touch pwned-dollar) `touch pwned-tick` "; touch pwned-semi\nsecond line\t-- --help';

describe('muster new (real daemon, real tmux, real git, stand-in harnesses)', () => {
  const t = tempHome('muster-e2e-new-');
  const home = realpathSync(t.home);
  const bin = join(home, 'bin');
  const out = join(home, 'started');
  const repo = join(home, 'projects', 'app');
  const socket = join(home, 'tmux.sock');
  const env = envFor(home, { MUSTER_TMUX_SOCKET: socket, PATH: `${bin}:${process.env.PATH}`, E2E_DAEMON_MARK: 'from-the-daemon' });
  const tmux = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile('tmux', ['-S', socket, ...args], { timeout: 5000, encoding: 'utf8' }, (e, o, err) => (e ? reject(new Error(err || e.message)) : resolve(o))));
  let daemon: ChildProcess;
  let api: { base: string; token: string };

  /** What a stand-in recorded for a launch: [cwd, ...argv] and its environment. */
  const started = (launchId: string) =>
    until(`the stand-in of ${launchId} started`, () => {
      const f = join(out, `${launchId}.env`);
      if (!existsSync(f) || !readFileSync(f, 'utf8').endsWith('\n')) return undefined;
      const [cwd, ...argv] = readFileSync(join(out, `${launchId}.argv`), 'utf8').split('\0').slice(0, -1);
      const vars = new Map(readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const));
      return { cwd, argv, env: vars };
    }, 15_000);
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.base}/api/sessions/new`, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  before(async () => {
    mkdirSync(bin, { recursive: true });
    mkdirSync(out, { recursive: true });
    mkdirSync(repo, { recursive: true });
    for (const h of ['pi', 'claude']) {
      // Records what it was started with, under the launch id the wrapper gave it, then stays up like a harness.
      writeFileSync(join(bin, h), `#!/bin/sh\nprintf '%s\\0' "$(pwd)" "$@" > "${out}/$MUSTER_LAUNCH_ID.argv"\nenv > "${out}/$MUSTER_LAUNCH_ID.env.tmp" && mv "${out}/$MUSTER_LAUNCH_ID.env.tmp" "${out}/$MUSTER_LAUNCH_ID.env"\nexec sleep 300\n`);
      chmodSync(join(bin, h), 0o755);
    }
    const git = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };
    execFileSync('git', ['init', '-q', '-b', 'main', repo], { env: git });
    execFileSync('git', ['-C', repo, 'commit', '-q', '--allow-empty', '-m', 'first'], { env: git });
    const tmuxEnv: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm' };
    delete tmuxEnv.TMUX;
    await new Promise<void>((resolve, reject) =>
      execFile('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'work', 'sleep', '3600'], { env: tmuxEnv }, (e) => (e ? reject(e) : resolve())),
    );
    const served = await startServe(env);
    daemon = served.child;
    api = splitBoardUrl(served.envelope.boardUrl);
  });

  after(async () => {
    await tmux(['kill-server']).catch(() => {});
    daemon?.kill('SIGTERM');
    if (daemon) await waitExit(daemon);
    t.cleanup();
  });

  it('opens `muster pi --name NAME` in a new tmux window; hostile name and prompt arrive verbatim, nothing runs', async () => {
    const r = await runCli(['new', 'pi', '--cwd', repo, '--name', '$(touch pwned-name) demo', '--prompt', HOSTILE], { ...env, PWD: home });
    assert.equal(r.code, 0, r.stderr);
    const a = r.json as unknown as Record<string, unknown> & { launchId: string; pane: { id: string } };
    assert.deepEqual([a.outcome, a.harness, a.sessionId, a.cwd, a.name, a.worktree], ['started', 'pi', null, repo, '$(touch pwned-name) demo', null]);
    const s = await started(a.launchId);
    assert.equal(s.cwd, repo);
    assert.equal(s.argv[0], '-e', 'the wrapper loaded its extension: the session is wired');
    assert.equal(s.argv.at(-1), HOSTILE, 'the prompt is the last argument, byte for byte');
    assert.equal(s.env.get('MUSTER_LAUNCH_ID'), a.launchId);
    assert.equal(s.env.get('E2E_DAEMON_MARK'), 'from-the-daemon', "the daemon's environment reached the harness");
    assert.equal(s.env.get('MUSTER_START_FILE'), undefined);
    assert.equal(existsSync(join(home, 'launch', a.launchId, 'start.json')), false, 'the start file was taken');
    const [session, name, path] = (await tmux(['display-message', '-p', '-t', a.pane.id, '#{session_name}\t#{window_name}\t#{pane_current_path}'])).trim().split('\t');
    assert.deepEqual([session, name, path], ['muster', '$(touch pwned-name) demo', repo]);
    for (const dir of [home, repo, process.cwd()]) assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('pwned')), [], `nothing ran in ${dir}`);
    // The wrapper registered the launch under the id the daemon answered with.
    const launches = (await (await fetch(`${api.base}/api/launches?running=true`, { headers: { authorization: `Bearer ${api.token}` } })).json()) as { launches?: { id: string; name: string }[] };
    assert.ok(launches.launches?.some((l) => l.id === a.launchId && l.name === '$(touch pwned-name) demo'), JSON.stringify(launches));
  });

  it('claude gets its session id up front, and a prompt that is a subcommand name stays a prompt (after --)', async () => {
    const r = await runCli(['new', 'claude', '--cwd', repo, '--prompt', 'mcp', '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    const a = r.json as unknown as Record<string, unknown> & { launchId: string; sessionId: string };
    assert.match(a.sessionId, /^[0-9a-f-]{36}$/);
    const s = await started(a.launchId);
    assert.deepEqual(s.argv.slice(-4), ['--session-id', a.sessionId, '--', 'mcp']);
    assert.ok(s.argv.includes('--mcp-config') && s.argv.includes('--settings'), 'wired by the wrapper');
  });

  it('--focus: the attached terminal is switched to the new pane', async () => {
    // The operator's terminal: a real tmux client on a pty (script(1)), showing another session.
    const client = spawn('script', ['-qfc', `tmux -S ${socket} attach -t =work`, '/dev/null'], { stdio: 'ignore', env: { PATH: process.env.PATH, TERM: 'xterm' } });
    try {
      await until('a tmux client attached', async () => ((await tmux(['list-clients', '-F', '#{client_name}'])).trim() ? true : undefined), 20_000);
      const r = await runCli(['new', 'pi', '--cwd', repo, '--focus', '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      const a = r.json as unknown as { pane: { id: string }; focus: { outcome: string } };
      assert.deepEqual(a.focus, { outcome: 'focused' });
      assert.equal((await tmux(['list-clients', '-F', '#{pane_id}'])).trim(), a.pane.id);
    } finally {
      client.kill('SIGKILL');
    }
  });

  it('a directory that is missing, a file or relative: 400 invalid_directory; nothing opened', async () => {
    const windows = (await tmux(['list-windows', '-t', '=muster', '-F', '#{window_id}'])).trim().split('\n').length;
    writeFileSync(join(home, 'a-file'), 'x');
    for (const cwd of [join(home, 'missing'), join(home, 'a-file'), 'projects/app', '']) {
      const res = await post({ harness: 'pi', cwd });
      assert.equal(res.status, 400, cwd);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_directory', cwd);
    }
    const cli = await runCli(['new', 'pi', '--cwd', join(home, 'missing')], env);
    assert.deepEqual([cli.code, cli.json.error?.code], [1, 'invalid_directory']);
    assert.equal((await tmux(['list-windows', '-t', '=muster', '-F', '#{window_id}'])).trim().split('\n').length, windows);
  });

  it('bad branch names are refused (400 invalid_branch) before git or a pane; nothing is made', async () => {
    for (const branch of ['a..b', '-b', '--force', '$(touch pwned-branch)', 'a b', 'x.lock', 'HEAD', '@', 'a//b', 'feature/', '.hidden', 'a\nb']) {
      const res = await post({ harness: 'pi', cwd: repo, worktree: branch });
      assert.equal(res.status, 400, JSON.stringify(branch));
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_branch', JSON.stringify(branch));
    }
    assert.equal(existsSync(join(home, 'projects', 'app.worktrees')), false);
    assert.equal(execFileSync('git', ['-C', repo, 'branch', '--list'], { encoding: 'utf8' }).trim(), '* main');
  });

  it('--worktree feature-x: a worktree beside the repository on a new branch, the session runs there; again → 409; listed', async () => {
    const r = await runCli(['new', 'pi', '--cwd', repo, '--worktree', 'feature-x', '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    const wt = join(home, 'projects', 'app.worktrees', 'feature-x');
    const a = r.json as unknown as Record<string, unknown> & { launchId: string; worktree: { path: string; branch: string; newBranch: boolean } };
    assert.deepEqual([a.cwd, a.worktree.path, a.worktree.branch, a.worktree.newBranch], [wt, wt, 'feature-x', true]);
    assert.equal((await started(a.launchId)).cwd, wt);
    assert.equal(execFileSync('git', ['-C', wt, 'branch', '--show-current'], { encoding: 'utf8' }).trim(), 'feature-x');
    const again = await runCli(['new', 'pi', '--cwd', repo, '--worktree', 'feature-x'], env);
    assert.deepEqual([again.code, again.json.error?.code], [1, 'branch_in_use']);
    assert.match(again.json.error?.message ?? '', new RegExp(`already checked out in ${wt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const res = await post({ harness: 'pi', cwd: repo, worktree: 'main' });
    assert.equal(res.status, 409);
    const listed = await runCli(['worktrees', '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const views = listed.json.worktrees as { path: string; branch: string; exists: boolean; dirty: boolean | null }[];
    assert.deepEqual(views.map((v) => [v.path, v.branch, v.exists, v.dirty]), [[wt, 'feature-x', true, false]]);
  });

  it('a prompt over 32 000 characters or a 100 KB body: 413; a name with a newline or a leading dash: 400', async () => {
    assert.equal((await post({ harness: 'pi', cwd: repo, prompt: 'p'.repeat(32_001) })).status, 413);
    assert.equal((await post({ harness: 'pi', cwd: repo, prompt: 'p'.repeat(100_000) })).status, 413);
    for (const name of ['two\nlines', '--help']) {
      const res = await post({ harness: 'pi', cwd: repo, name });
      assert.deepEqual([res.status, ((await res.json()) as { error: { code: string } }).error.code], [400, 'invalid_argument'], name);
    }
  });

  it('usage: a harness is required and known; goal limits go with --goal; --wait is 0-20 (exit 2)', async () => {
    for (const args of [['new'], ['new', 'nope'], ['new', 'pi', 'extra'], ['new', 'pi', '--budget', '5'], ['new', 'pi', '--wait', '21'], ['new', 'pi', '--no-such-flag']]) {
      const r = await runCli(args, env);
      assert.deepEqual([r.code, r.json.error?.code], [2, 'usage'], args.join(' '));
    }
  });

  it('the same token and Origin rules as every action: no token → 401, a foreign Origin → 403', async () => {
    const bare = await fetch(`${api.base}/api/sessions/new`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ harness: 'pi', cwd: repo }) });
    assert.equal(bare.status, 401);
    assert.equal((await post({ harness: 'pi', cwd: repo }, { origin: 'http://evil.example' })).status, 403);
  });
});
