// The operator TUI through the built CLI in a real tmux pane (issue 10, Acceptance): the list matches
// `muster ls --json`; a status change appears within 1 s of the daemon's event; a page is answered
// from the TUI and the waiting MCP call receives the answer; focus moves the attached client to the
// session's pane; quitting restores the terminal. Without a terminal, `muster` prints the status envelope.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BIN, envFor, runCli, splitBoardUrl, startServe, tempHome, until, waitExit } from './kit.ts';
import { callTool, connectMcp, openSse, type SseReader } from './pager-kit.ts';
import { startTmux, type Pane, type Tmux } from '../harness/kit/tmux.ts';
import { registryJson, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const LIVE = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const DORMANT = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';

function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

describe('operator TUI in a real tmux pane', () => {
  const t = tempHome('muster-e2e-tui-');
  const claudeHome = join(t.home, '.claude');
  const proj = join(t.home, 'proj');
  let tmux: Tmux;
  let env: NodeJS.ProcessEnv;
  let daemon: ChildProcess;
  let agent: Pane;
  let tui: Pane;
  let client: ChildProcess | undefined;
  let mcp: Client;
  let sse: SseReader;
  let api: { base: string; token: string };
  const tmuxCmd = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile('tmux', ['-S', tmux.socket, ...args], { timeout: 5000, encoding: 'utf8' }, (e, out, err) => (e ? reject(new Error(err || e.message)) : resolve(out))));
  const screen = () => tmux.capture(tui.id);
  const registry = (status: string, waitingFor?: string) =>
    writeFileSync(join(claudeHome, 'sessions', `${agent.pid}.json`), registryJson({ pid: agent.pid, sessionId: LIVE, procStart: startTicks(agent.pid), status, waitingFor, cwd: proj }));

  before(async () => {
    mkdirSync(proj, { recursive: true });
    mkdirSync(join(claudeHome, 'sessions'), { recursive: true });
    tmux = await startTmux(join(t.home, 'tmux'));
    env = envFor(t.home, { MUSTER_TMUX_SOCKET: tmux.socket });
    // The live agent: a process named `claude` in its own pane (its registry names it by pid and start time).
    agent = await tmux.newPane(['bash', '-c', 'exec -a claude sleep 300'], { cwd: proj, env: { PATH: process.env.PATH } });
    await until('the agent renamed itself', () => (readFileSync(`/proc/${agent.pid}/cmdline`, 'utf8').startsWith('claude\0') ? true : undefined));
    registry('idle');
    writeTranscript(claudeHome, LIVE, [userLine('tidy the parser', { sessionId: LIVE, cwd: proj })], proj);
    writeTranscript(claudeHome, DORMANT, [userLine('old dormant work', { sessionId: DORMANT, cwd: proj })], proj);
    const s = await startServe(env);
    daemon = s.child;
    api = splitBoardUrl(s.envelope.boardUrl);
    const set = await fetch(`${api.base}/api/settings`, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ notifyDesktop: false, askWaitSeconds: 60 }) });
    assert.equal(set.status, 200, await set.text());
    sse = await openSse(api);
    // Through a shell that prints the exit code afterwards, on the restored main screen, then stays.
    tui = await tmux.newPane(['sh', '-c', '"$0" "$1"; echo "muster exited $?"; exec sleep 60', process.execPath, BIN], { cwd: proj, env: { ...env, TERM: 'xterm-256color' } });
  });

  after(async () => {
    client?.kill('SIGKILL');
    sse?.close();
    await mcp?.close().catch(() => undefined);
    await tmux?.kill();
    daemon?.kill('SIGTERM');
    if (daemon) await waitExit(daemon);
    t.cleanup();
  });

  it('without a terminal, `muster` prints the status envelope', async () => {
    const r = await runCli([], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.running, true);
  });

  it('the list matches `muster ls --json`', async () => {
    const text = await tmux.waitForText(tui.id, /tidy the parser[\s\S]*old dormant work/, 15_000);
    const ls = await runCli(['ls', '--json'], env);
    const sessions = ls.json.sessions as { id: string; title: string; live: boolean }[];
    assert.deepEqual(sessions.map((s) => s.id).sort(), [DORMANT, LIVE].sort());
    assert.match(text, new RegExp(`Sessions ${sessions.length} `));
    for (const s of sessions) assert.ok(text.includes(s.title), `${s.title} is on screen`);
    // Live first (idle group), then recently ended.
    assert.ok(text.indexOf('── IDLE') < text.indexOf('tidy the parser'));
    assert.ok(text.indexOf('tidy the parser') < text.indexOf('── RECENTLY ENDED'));
    assert.ok(text.indexOf('── RECENTLY ENDED') < text.indexOf('old dormant work'));
  });

  it('a status change appears within 1 s of the daemon\'s event', async () => {
    const written = performance.now();
    registry('waiting', 'permission: Bash(make deploy)');
    const event = await sse.next('session.status.changed', (d) => d.id === LIVE && d.status === 'waiting', 10_000);
    const shown = await until('the waiting row', async () => ((await screen()).includes('↳ permission: Bash(make deploy)') ? performance.now() : undefined), 5000, { stepMs: 20 });
    const ms = shown - event.at;
    assert.ok(ms <= 1000, `event → screen took ${Math.round(ms)} ms`);
    const text = await screen();
    assert.ok(text.indexOf('── WAITING') < text.indexOf('tidy the parser'), 'the waiting session moved to the top group');
    process.stdout.write(`# status change: file → event ${Math.round(event.at - written)} ms, event → screen ${Math.round(ms)} ms\n`);
  });

  it('a page is answered from the TUI (choice, then free text) and the waiting MCP calls receive the answers', async () => {
    mcp = await connectMcp({ mcpUrl: `${api.base}/mcp`, token: api.token }, { 'x-muster-session-id': LIVE, 'x-muster-harness': 'claude' });
    const asking = callTool(mcp, 'ask_operator', { question: 'Deploy to prod now?', choices: ['yes', 'not yet'] }, { timeout: 60_000 });
    await tmux.sendKeys(tui.id, 'Tab');
    await tmux.waitForText(tui.id, /Deploy to prod now\?[\s\S]*1\) yes {3}2\) not yet/, 10_000);
    await tmux.sendKeys(tui.id, '2', { literal: true });
    await tmux.waitForText(tui.id, /Answer "not yet"\? \[y\/N\]/, 5000);
    await tmux.sendKeys(tui.id, 'y', { literal: true });
    const got = await asking;
    assert.deepEqual([got.status, got.answer, got.choice], ['answered', 'not yet', 1]);
    await tmux.waitForText(tui.id, /answer: answered/, 5000);

    const free = callTool(mcp, 'ask_operator', { question: 'Which region?' }, { timeout: 60_000 });
    await tmux.waitForText(tui.id, /pending .*Which region\?/, 10_000);
    await tmux.sendKeys(tui.id, 'a', { literal: true });
    await tmux.waitForText(tui.id, /Answer: █/, 5000);
    await tmux.sendKeys(tui.id, 'eu-west 1', { literal: true });
    await tmux.sendKeys(tui.id, 'Enter');
    assert.equal((await free).answer, 'eu-west 1');
    await tmux.sendKeys(tui.id, 'Tab');
    await tmux.waitForText(tui.id, /── WAITING/, 5000);
  });

  it('focus moves the attached client to the session\'s pane', async () => {
    const window = (await tmuxCmd(['display-message', '-p', '-t', tui.id, '#{window_id}'])).trim();
    client = spawn('script', ['-qfc', `tmux -S ${tmux.socket} attach -t ${window}`, '/dev/null'], { stdio: 'ignore', env: { ...process.env, TERM: 'xterm' } });
    await until('a client attached on the TUI', async () => ((await tmuxCmd(['list-clients', '-F', '#{pane_id}'])).trim() === tui.id ? true : undefined));
    await tmux.waitForText(tui.id, /› ◆ wait .*tidy the parser/, 5000);
    await tmux.sendKeys(tui.id, 'f', { literal: true });
    await until('the client on the agent pane', async () => ((await tmuxCmd(['list-clients', '-F', '#{pane_id}'])).trim() === agent.id ? true : undefined), 5000);
    await tmux.waitForText(tui.id, /focus 7c1d2e3f: focused/, 5000);
  });

  it('quitting restores the terminal (main screen, cursor shown) and exits 0', async () => {
    await tmux.sendKeys(tui.id, 'q', { literal: true });
    // The shell stays (sleep) so the pane's modes are the ones the TUI left, not a dead pane's.
    await tmux.waitForText(tui.id, /muster exited 0/, 5000);
    const [alt, cursor] = (await tmuxCmd(['display-message', '-p', '-t', tui.id, '#{alternate_on} #{cursor_flag}'])).trim().split(' ');
    assert.deepEqual({ alt, cursor }, { alt: '0', cursor: '1' });
    const text = await screen();
    assert.match(text, /muster exited 0/);
    assert.ok(!text.includes('── '), 'no frame left on the main screen');
  });
});
