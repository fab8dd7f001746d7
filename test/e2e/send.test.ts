// `muster send` and POST /api/sessions/:harness/:id/send through the built CLI and a real daemon
// (issue 21, points 3 and 4): a private tmux server, stand-in agents named `claude` with a registry
// file each. One reads its terminal as an agent TUI does (raw mode, bracketed paste) and records every
// byte; hostile text reaches it verbatim or is refused (413), and never runs. A pane whose foreground
// is not the session's process, or whose terminal is in line mode, is refused with pane_mismatch.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, runCli, sleep, splitBoardUrl, startServe, tempHome, until, waitExit } from './kit.ts';
import { registryJson, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const TUI = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const BACKGROUNDED = '8d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a';
const LINE_MODE = '9e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b';
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

/** What a raw-mode reader got: `ESC[200~ … ESC[201~` (newlines as CR), then CR = Enter. */
function pasted(raw: string): { text: string; enter: boolean } | null {
  // eslint-disable-next-line no-control-regex -- the paste brackets are escape sequences
  const m = /^\x1b\[200~([\s\S]*)\x1b\[201~\r$/.exec(raw);
  return m ? { text: (m[1] ?? '').replace(/\r/g, '\n'), enter: true } : null;
}

describe('send through the daemon (real tmux, stand-in agents)', () => {
  const t = tempHome('muster-e2e-send-');
  const claudeHome = join(t.home, '.claude');
  const proj = join(t.home, 'proj');
  const bin = join(t.home, 'bin');
  const socket = join(t.home, 'tmux.sock');
  const marker = join(t.home, 'x');
  const env = envFor(t.home, { MUSTER_TMUX_SOCKET: socket, PATH: `${bin}:${process.env.PATH}` });
  const tmux = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile('tmux', ['-S', socket, ...args], { timeout: 5000, encoding: 'utf8' }, (e, out, err) => (e ? reject(new Error(err || e.message)) : resolve(out))));
  let daemon: ChildProcess;
  let api: { base: string; token: string };
  /** What the TUI stand-in read since `from` (its file only grows: the reader keeps it open). */
  const received = (from = 0): string => (existsSync(join(t.home, 'tui.bytes')) ? readFileSync(join(t.home, 'tui.bytes'), 'latin1').slice(from) : '');

  /** A bash pane in `proj` running `script` as `claude` in its foreground; its registry names `id`. Resolves the agent's pid. */
  async function agent(id: string, script: string, args: string[], status = 'idle'): Promise<number> {
    const [pane, shell] = (await tmux(['new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', '-t', '=work:', '-c', proj, '--', 'bash', '--norc', '--noprofile', '-i'])).trim().split(' ');
    await sleep(300);
    await tmux(['send-keys', '-t', pane as string, '-l', `(exec -a claude ${python} ${join(bin, script)} ${args.join(' ')})`]);
    await tmux(['send-keys', '-t', pane as string, 'Enter']);
    const pid = await until(`the claude-named process of ${id}`, () => childrenOf(Number(shell)).find((p) => argv0(p) === 'claude'));
    writeFileSync(join(claudeHome, 'sessions', `${pid}.json`), registryJson({ pid, sessionId: id, procStart: startTicks(pid), status, cwd: proj }));
    writeTranscript(claudeHome, id, [userLine(`session ${id.slice(0, 4)}`, { sessionId: id, cwd: proj })], proj);
    return pid;
  }

  async function send(id: string, body: unknown, harness = 'claude'): Promise<{ status: number; json: Record<string, unknown> & { error?: { code: string } } }> {
    const res = await fetch(`${api.base}/api/sessions/${harness}/${id}/send`, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> & { error?: { code: string } } };
  }

  before(async () => {
    mkdirSync(proj, { recursive: true });
    mkdirSync(bin, { recursive: true });
    mkdirSync(join(claudeHome, 'sessions'), { recursive: true });
    // An agent TUI: raw mode and bracketed paste on, every byte it reads appended to a file.
    writeFileSync(join(bin, 'tui.py'), [
      'import os, sys, tty',
      'tty.setraw(0)',
      "os.write(1, b'\\x1b[?2004h')",
      "out = open(sys.argv[1], 'wb')",
      'while True:',
      '    b = os.read(0, 65536)',
      '    if not b: break',
      '    out.write(b); out.flush()',
      '',
    ].join('\n'));
    // An agent that ran a command which took the terminal (its pane's foreground is `sleep`).
    writeFileSync(join(bin, 'bg.py'), [
      'import os, signal, time',
      'child = os.fork()',
      'if child == 0:',
      '    os.setpgid(0, 0)',
      '    time.sleep(0.2)',
      "    os.execvp('sleep', ['sleep', '300'])",
      'os.setpgid(child, child)',
      'signal.signal(signal.SIGTTOU, signal.SIG_IGN)',
      'os.tcsetpgrp(0, child)',
      'time.sleep(300)',
      '',
    ].join('\n'));
    // A print-mode run: in the foreground, but its terminal stays in line mode (it reads no keys).
    writeFileSync(join(bin, 'print.py'), 'import time\ntime.sleep(300)\n');
    // A stand-in `claude` for resumed windows: records the argv it was started with.
    writeFileSync(join(bin, 'claude'), `#!/bin/sh\nprintf '%s\\0' "$@" > "${t.home}/resumed-$$.argv"\nexec sleep 300\n`);
    chmodSync(join(bin, 'claude'), 0o755);
    const tmuxEnv: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}`, TERM: 'xterm' };
    delete tmuxEnv.TMUX;
    await new Promise<void>((resolve, reject) =>
      execFile('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'work', '-x', '120', '-y', '40', 'sleep', '3600'], { env: tmuxEnv }, (e) => (e ? reject(e) : resolve())),
    );
    await agent(TUI, 'tui.py', [join(t.home, 'tui.bytes')]);
    const bgPid = await agent(BACKGROUNDED, 'bg.py', []);
    const sleeper = await until('sleep started by the agent', () => childrenOf(bgPid).find((p) => argv0(p) === 'sleep'));
    const tpgid = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[5]);
    await until('sleep holds the terminal', () => (tpgid(bgPid) === sleeper ? true : undefined));
    await agent(LINE_MODE, 'print.py', []);
    writeTranscript(claudeHome, DORMANT, [userLine('old work', { sessionId: DORMANT, cwd: proj })], proj);
    const served = await startServe(env);
    daemon = served.child;
    api = splitBoardUrl(served.envelope.boardUrl);
    await until('every live session listed', async () => {
      const r = await runCli(['ls', '--live', '--json'], env);
      return (r.json.sessions as unknown[] | undefined)?.length === 3 ? true : undefined;
    });
  });

  after(async () => {
    await tmux(['kill-server']).catch(() => {});
    daemon?.kill('SIGTERM');
    if (daemon) await waitExit(daemon);
    t.cleanup();
  });

  it('hostile text reaches the agent verbatim as one paste and Enter (muster send), and runs nothing', async () => {
    const text = `fix it $(touch ${marker}) and \`touch ${marker}\`; rm -rf nothing | cat\nsecond line 'q' "dq" \\ end`;
    const r = await runCli(['send', TUI, text], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.delivered, 'pane');
    assert.equal(r.json.queued, false);
    const got = await until('the paste arrived', () => pasted(received()) ?? undefined);
    assert.deepEqual(got, { text, enter: true });
    await sleep(300);
    assert.equal(existsSync(marker), false, 'nothing ran the text');
  });

  it('the text can come from stdin (`muster send <id> -`), newlines and all', async () => {
    const mark = received().length;
    const text = 'from a file\n\twith a tab\nand `backticks`';
    const r = await runCli(['send', TUI, '-'], env, { input: text });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await until('the paste arrived', () => pasted(received(mark)) ?? undefined), { text, enter: true });
  });

  it('100 KiB arrives whole; one byte more is 413 payload_too_large and nothing is typed; empty is 400', async () => {
    let mark = received().length;
    const big = `${'0123456789abcdef'.repeat(6400)}`; // 102400 bytes
    const ok = await send(TUI, { text: big });
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    const got = await until('100 KiB arrived', () => pasted(received(mark)) ?? undefined, 20_000);
    assert.equal(got.text.length, big.length);
    assert.equal(got.text, big);
    mark = received().length;
    const over = await send(TUI, { text: `${big}x` });
    assert.equal(over.status, 413);
    assert.equal(over.json.error?.code, 'payload_too_large');
    const empty = await send(TUI, { text: ' \n ' });
    assert.equal(empty.status, 400);
    assert.equal(empty.json.error?.code, 'invalid_body');
    const escape = await send(TUI, { text: 'a\u001b[201~b' });
    assert.equal(escape.status, 400);
    await sleep(500);
    assert.equal(received(mark), '', 'nothing was typed');
  });

  it('a pane whose foreground process is not the session\'s is refused: pane_mismatch, nothing typed', async () => {
    const r = await runCli(['send', BACKGROUNDED, 'hello'], env);
    assert.equal(r.code, 1);
    assert.equal(r.json.error?.code, 'pane_mismatch');
    const direct = await send(BACKGROUNDED, { text: 'hello' });
    assert.equal(direct.status, 409);
    assert.equal(direct.json.error?.code, 'pane_mismatch');
  });

  it('a process that reads no keys (its terminal in line mode) is refused: the text would wait for the shell', async () => {
    const r = await send(LINE_MODE, { text: `touch ${marker}` });
    assert.equal(r.status, 409);
    assert.equal(r.json.error?.code, 'pane_mismatch');
    assert.equal(existsSync(marker), false);
  });

  it('a dormant session is resumed with the text as its first prompt, one argv element after --', async () => {
    const text = `-p $(touch ${marker}) \`id\``;
    const r = await runCli(['send', DORMANT, '--', text], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.delivered, 'resumed');
    const file = await until('the resumed command ran', () => readdirSync(t.home).find((f) => f.startsWith('resumed-')));
    assert.deepEqual(readFileSync(join(t.home, file), 'utf8').split('\0').slice(0, -1), ['--resume', DORMANT, '--', text]);
    assert.equal(existsSync(marker), false);
  });

  it('ids, harnesses, token and Origin are checked first: 400 for a malformed id or harness, 404 for another harness\'s session, 401, 403', async () => {
    assert.equal((await send('$(touch x)', { text: 'hi' })).status, 400);
    assert.equal((await send(TUI, { text: 'hi' }, 'nope')).status, 400);
    const other = await send(TUI, { text: 'hi' }, 'codex');
    assert.equal(other.status, 404);
    assert.equal(other.json.error?.code, 'session_not_found');
    const noToken = await fetch(`${api.base}/api/sessions/claude/${TUI}/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' });
    assert.equal(noToken.status, 401);
    const foreign = await fetch(`${api.base}/api/sessions/claude/${TUI}/send`, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, origin: 'http://evil.example', 'content-type': 'application/json' }, body: '{"text":"hi"}' });
    assert.equal(foreign.status, 403, 'a cross-origin send is refused like every action');
  });

  it('every send is in the action log with who and the outcome', async () => {
    const res = await fetch(`${api.base}/api/actions?limit=100`, { headers: { authorization: `Bearer ${api.token}` } });
    const body = (await res.json()) as { actions: { actor: string; action: string; outcome: string; sessionId: string; detail: Record<string, unknown> }[] };
    const seen = body.actions.filter((a) => a.action === 'send').map((a) => `${a.actor}:${a.outcome}`);
    for (const want of ['cli:sent', 'api:sent', 'api:payload_too_large', 'api:invalid_body', 'cli:pane_mismatch', 'api:pane_mismatch', 'api:session_not_found']) assert.ok(seen.includes(want), `${want} in ${seen.join(', ')}`);
    const first = body.actions.find((a) => a.action === 'send' && a.sessionId === TUI && a.actor === 'cli');
    assert.ok(typeof first?.detail.excerpt === 'string' && (first.detail.excerpt as string).length <= 80);
  });
});
