// Panes and actions through the built CLI and a real daemon (issue 6): a private tmux server with
// its own socket, a fake agent named `claude` that a command it ran pushed to the background of its
// shell, focus of an attached (headless) client, resume into a new window, end, and id refusal.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, runCli, sleep, startServe, tempHome, until, waitExit } from './kit.ts';
import { registryJson, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const LIVE = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const DORMANT = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';

/** The real interpreter (a version-manager shim on PATH would be the process instead). */
const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}
const childrenOf = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
const argv0 = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';

describe('panes and actions through the daemon (real tmux)', () => {
  const t = tempHome('muster-e2e-actions-');
  const claudeHome = join(t.home, '.claude');
  const proj = join(t.home, 'proj');
  const bin = join(t.home, 'bin');
  const socket = join(t.home, 'tmux.sock');
  // The daemon's PATH reaches the windows it opens (tmux gives a new session the client's environment).
  const env = envFor(t.home, { MUSTER_TMUX_SOCKET: socket, PATH: `${bin}:${process.env.PATH}` });
  const tmux = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile('tmux', ['-S', socket, ...args], { timeout: 5000, encoding: 'utf8' }, (e, out, err) => (e ? reject(new Error(err || e.message)) : resolve(out))));
  let daemon: ChildProcess;
  let client: ChildProcess | undefined;
  let agentPane = '';
  let agentPid = 0;

  before(async () => {
    mkdirSync(proj, { recursive: true });
    mkdirSync(bin, { recursive: true });
    // A stand-in `claude` for resumed windows: records the argv it was started with and its cwd.
    writeFileSync(join(bin, 'claude'), `#!/bin/sh\nprintf '%s\\n' "$(pwd)" "$(basename "$0")" "$@" > "${t.home}/resumed-$$.txt"\nexec sleep 300\n`);
    chmodSync(join(bin, 'claude'), 0o755);
    const tmuxEnv: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}`, TERM: 'xterm' };
    delete tmuxEnv.TMUX;
    await new Promise<void>((resolve, reject) =>
      execFile('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'work', '-x', '120', '-y', '40', 'sleep', '3600'], { env: tmuxEnv }, (e) => (e ? reject(e) : resolve())),
    );
    // A stand-in agent: named `claude`, it starts `sleep` in its own process group and hands it the
    // terminal (as an agent running a full-screen command does), and exits on SIGTERM.
    writeFileSync(join(bin, 'agent.py'), [
      'import os, signal, time',
      'child = os.fork()',
      'if child == 0:',
      '    os.setpgid(0, 0)',
      '    time.sleep(0.2)',
      "    os.execvp('sleep', ['sleep', '300'])",
      'os.setpgid(child, child)',
      'signal.signal(signal.SIGTTOU, signal.SIG_IGN)',
      'os.tcsetpgrp(0, child)',
      'def term(*_):',
      '    os.kill(child, signal.SIGKILL)',
      '    os._exit(143)',
      'signal.signal(signal.SIGTERM, term)',
      'while True:',
      '    time.sleep(1)',
      '',
    ].join('\n'));
    // The agent's pane: an interactive shell that runs the agent as its job.
    const [pane, shell] = (await tmux(['new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', '-t', '=work:', '-c', proj, '--', 'bash', '--norc', '--noprofile', '-i'])).trim().split(' ');
    agentPane = pane as string;
    await sleep(300);
    await tmux(['send-keys', '-t', agentPane, '-l', `(exec -a claude ${python} ${join(bin, 'agent.py')})`]);
    await tmux(['send-keys', '-t', agentPane, 'Enter']);
    agentPid = await until('the claude-named process', () => childrenOf(Number(shell)).find((p) => argv0(p) === 'claude'));
    const sleeper = await until('sleep started by the agent', () => childrenOf(agentPid).find((p) => argv0(p) === 'sleep'));
    const tpgid = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[5]);
    await until('sleep holds the terminal', () => (tpgid(agentPid) === sleeper ? true : undefined));
    mkdirSync(join(claudeHome, 'sessions'), { recursive: true });
    writeFileSync(join(claudeHome, 'sessions', `${agentPid}.json`), registryJson({ pid: agentPid, sessionId: LIVE, procStart: startTicks(agentPid), status: 'idle', cwd: proj }));
    writeTranscript(claudeHome, LIVE, [userLine('live in a pane', { sessionId: LIVE, cwd: proj })], proj);
    writeTranscript(claudeHome, DORMANT, [userLine('fix it; $(touch /tmp/muster-pwned) `id`', { sessionId: DORMANT, cwd: proj })], proj);
    daemon = (await startServe(env)).child;
  });

  after(async () => {
    client?.kill('SIGKILL');
    await tmux(['kill-server']).catch(() => {});
    daemon?.kill('SIGTERM');
    if (daemon) await waitExit(daemon);
    t.cleanup();
  });

  it('a live agent in the background of its shell is mapped to its pane (muster ls / show)', async () => {
    const pane = await until('the pane on the session', async () => {
      const r = await runCli(['show', LIVE], env);
      assert.equal(r.code, 0, r.stderr);
      const p = (r.json.session as { pane: { manager: string; id: string } | null }).pane;
      return p ?? undefined;
    });
    assert.equal(pane.manager, 'tmux');
    assert.equal(pane.id, agentPane);
  });

  it('focus without an attached client says so; with one, switches it to the pane', async () => {
    const none = await runCli(['focus', LIVE], env);
    assert.equal(none.code, 1);
    assert.equal(none.json.error?.code, 'no_client');
    client = spawn('script', ['-qfc', `tmux -S ${socket} attach -t =work:0`, '/dev/null'], { stdio: 'ignore', env: { ...process.env, TERM: 'xterm' } });
    await until('a client attached', async () => ((await tmux(['list-clients', '-F', '#{client_name}'])).trim() ? true : undefined));
    assert.notEqual((await tmux(['list-clients', '-F', '#{pane_id}'])).trim(), agentPane);
    const t0 = performance.now();
    const r = await runCli(['focus', LIVE], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((r.json.pane as { id: string }).id, agentPane);
    assert.equal((await tmux(['list-clients', '-F', '#{pane_id}'])).trim(), agentPane);
    assert.ok(performance.now() - t0 < 5000);
  });

  it('resume of the live session focuses it instead; resume of the dormant one opens its resume argv in its cwd', async () => {
    const live = await runCli(['resume', LIVE], env);
    assert.equal(live.code, 0, live.stderr);
    assert.equal(live.json.outcome, 'already_live');
    const printed = await runCli(['resume', DORMANT, '--print'], env);
    assert.deepEqual(printed.json, { ok: true, argv: ['claude', '--resume', DORMANT], cwd: proj });
    const r = await runCli(['resume', DORMANT], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.outcome, 'resumed');
    const file = await until('the resumed command ran', () => readdirSync(t.home).find((f) => f.startsWith('resumed-')));
    assert.deepEqual(readFileSync(join(t.home, file), 'utf8').trim().split('\n'), [proj, 'claude', '--resume', DORMANT]);
    const windows = (await tmux(['list-windows', '-t', '=muster', '-F', '#{window_name}'])).trim().split('\n');
    assert.deepEqual(windows, ['fix it; $(touch /tmp/muster-pwned) `id`']);
    assert.equal(existsSync('/tmp/muster-pwned'), false);
  });

  it('ids that are not session ids are 400 and never reach tmux', async () => {
    const { base, token } = await (async () => {
      const u = await runCli(['url'], env);
      const url = new URL(String(u.json.url ?? u.json.boardUrl));
      return { base: url.origin, token: url.searchParams.get('token') ?? '' };
    })();
    for (const bad of ['$(touch /tmp/x)', '../../etc', `ses_${'a'.repeat(25)}`, `${LIVE}\n`]) {
      for (const action of ['focus', 'resume', 'end']) {
        const res = await fetch(`${base}/api/${action}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: bad }) });
        assert.equal(res.status, 400, `${action} ${JSON.stringify(bad)}`);
      }
    }
    assert.equal(existsSync('/tmp/x'), false);
  });

  it('end of the live session sends SIGTERM (204) and the session shows ended; a second end is 409', async () => {
    const r = await runCli(['end', LIVE], env);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json, { ok: true, ended: true, id: LIVE });
    await until('the session ended', async () => {
      const s = (await runCli(['show', LIVE], env)).json.session as { status: string; live: boolean };
      return s.status === 'ended' && !s.live ? true : undefined;
    });
    const again = await runCli(['end', LIVE], env);
    assert.equal(again.code, 1);
    assert.equal(again.json.error?.code, 'not_running');
  });

  it('every action is in the log with who and the outcome', async () => {
    const u = await runCli(['url'], env);
    const url = new URL(String(u.json.url ?? u.json.boardUrl));
    const res = await fetch(`${url.origin}/api/actions?sessionId=${LIVE}`, { headers: { authorization: `Bearer ${url.searchParams.get('token')}` } });
    const body = (await res.json()) as { actions: { actor: string; action: string; outcome: string }[] };
    const seen = body.actions.map((a) => `${a.actor}:${a.action}:${a.outcome}`);
    for (const want of ['cli:focus:no_client', 'cli:focus:focused', 'cli:resume:already_live', 'cli:end:ended', 'cli:end:not_running']) assert.ok(seen.includes(want), `${want} in ${seen.join(', ')}`);
  });
});
