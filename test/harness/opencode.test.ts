/**
 * Real-harness tier for the OpenCode source: the pinned `opencode` CLI (1.18.33) runs offline against the
 * fake model — `opencode run` headless and the TUI with `--port` in a private tmux — and every step is
 * asserted through what the source lists. `listSessions` is the seam the lead will switch to
 * `muster ls --json` against the real daemon.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, startFakeModel, DEFAULT_USAGE } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, runCli, startTmux } from './kit/index.ts';
import type { HarnessCli, HarnessEnv, Pane, Tmux } from './kit/index.ts';
import { createOpenCodeSource, DIED_MID_TURN } from '../../src/sources/opencode/index.ts';
import type { Session } from '../../src/sources/session.ts';

const SCENARIO_MS = 150_000;

describe('opencode 1.18.33 against the fake model', () => {
  let model: FakeModel;
  let cli: HarnessCli;
  let tmux: Tmux;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-opencode-'));
  const children: ChildProcess[] = [];
  const panes: number[] = [];
  let n = 0;

  before(async () => {
    cli = await ensureHarnessCli('opencode');
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    tmux = await startTmux(path.join(root, 'tmux'));
  });

  after(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const pid of panes) { try { process.kill(pid, 'SIGKILL'); } catch {} }
    await tmux?.kill();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const freshEnv = (): HarnessEnv => harnessEnv('opencode', { root: path.join(root, `s${++n}`), modelUrl: model.url, binDir: cli.binDir });
  /** What Muster reports for this OpenCode data dir (later: `muster ls --json`). */
  const source = (h: HarnessEnv) => createOpenCodeSource({ home: path.join(String(h.env.XDG_DATA_HOME), 'opencode'), env: {} });
  const listSessions = (h: HarnessEnv): Promise<Session[]> => source(h).list();

  async function waitForSession(h: HarnessEnv, what: string, pred: (s: Session) => boolean, timeoutMs = 40_000): Promise<Session> {
    const deadline = Date.now() + timeoutMs;
    let last: Session[] = [];
    for (;;) {
      last = await listSessions(h);
      const hit = last.find(pred);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms; sessions: ${JSON.stringify(last, null, 1)}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  /** `opencode run <words…>` in the background (words apart: OpenCode keeps quotes of one quoted arg). */
  function runInBackground(h: HarnessEnv, args: string[]): ChildProcess {
    const c = spawn(cli.bin, ['run', ...args], { cwd: h.cwd, env: h.env, stdio: 'ignore' });
    children.push(c);
    return c;
  }
  const exited = (c: ChildProcess): Promise<void> =>
    c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', () => r()));

  it('opencode run: dormant after exit, tokens, title and model right', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const r = await runCli(cli.bin, ['run', 'say', 'hi', 'from', 'run'], { cwd: h.cwd, env: h.env, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    const list = await listSessions(h);
    assert.equal(list.length, 1);
    const s = list[0]!;
    assert.match(s.id, /^ses_[0-9A-Za-z]{26}$/);
    assert.deepEqual([s.live, s.status, s.canEnd, s.pid], [false, 'ended', false, null]);
    assert.equal(s.cwd, h.cwd);
    assert.equal(s.model, 'fake-model');
    assert.deepEqual(s.tokens, { input: DEFAULT_USAGE.input, output: DEFAULT_USAGE.output, cacheRead: 0, cacheWrite: 0 });
    assert.ok(s.title.length > 0);
    assert.deepEqual(s.resumeArgv, ['opencode', '-s', s.id]);
  });

  it('opencode run: live and working during a slow reply; SIGTERM aborts cleanly → ended, not stuck', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const c = runInBackground(h, ['SLOW30', 'to', 'be', 'terminated']);
    const live = await waitForSession(h, 'working while the reply streams', (s) => s.live && s.status === 'working');
    assert.equal(live.pid, c.pid);
    assert.equal(live.canEnd, false, 'run without -s is matched by its cwd only: never ended on a guess');
    c.kill('SIGTERM');
    await exited(c);
    const s = await waitForSession(h, 'dormant after SIGTERM', (x) => x.id === live.id && !x.live, 15_000);
    assert.equal(s.status, 'ended');
  });

  it('SIGKILL mid-reply: stuck (process died), then ended once resumed and finished', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const c = runInBackground(h, ['SLOW30', 'to', 'be', 'killed']);
    const live = await waitForSession(h, 'working before the kill', (s) => s.live && s.status === 'working');
    c.kill('SIGKILL');
    await exited(c);
    const stuck = await waitForSession(h, 'stuck after SIGKILL', (s) => s.id === live.id && !s.live, 15_000);
    assert.equal(stuck.status, 'stuck');
    assert.equal(stuck.waitingFor, DIED_MID_TURN);
    assert.equal(stuck.canEnd, false);
    const r = await runCli(cli.bin, ['run', '-s', live.id, 'say', 'hi', 'again'], { cwd: h.cwd, env: h.env, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    const after = (await listSessions(h)).find((s) => s.id === live.id);
    assert.equal(after?.status, 'ended');
  });

  it('interactive opencode --port in tmux: idle, working, waiting on a permission, end() aborts and SIGTERMs', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    fs.writeFileSync(path.join(h.cwd, 'opencode.json'), JSON.stringify({ $schema: 'https://opencode.ai/config.json', permission: { bash: 'ask' } }));
    const port = await freePort();
    const pane = await tmux.newPane([cli.bin, '--port', String(port)], { cwd: h.cwd, env: h.env });
    panes.push(pane.pid);
    await waitForHealth(port, 30_000);
    await new Promise((r) => setTimeout(r, 1500)); // let the TUI draw its prompt box
    await type(pane, 'SLOW8 please say hi');
    const working = await waitForSession(h, 'working during a slow reply', (s) => s.live && s.status === 'working');
    assert.equal(working.pid, pane.pid);
    assert.equal(working.canEnd, true, 'its own server reports it busy: an exact claim');
    const idle = await waitForSession(h, 'idle after the reply', (s) => s.id === working.id && s.live && s.status === 'idle');
    assert.ok(idle.tokens.output >= DEFAULT_USAGE.output);

    await type(pane, `RUNCMD: touch ${path.join(h.cwd, 'perm.txt')}`);
    const waiting = await waitForSession(h, 'waiting on the bash permission', (s) => s.id === working.id && s.status === 'waiting');
    assert.match(waiting.waitingFor ?? '', /bash/);
    assert.equal(waiting.canEnd, true);

    assert.deepEqual(await source(h).end(working.id), { outcome: 'ended', signal: 'SIGTERM', pid: pane.pid });
    const ended = await waitForSession(h, 'dormant after end()', (s) => s.id === working.id && !s.live, 15_000);
    assert.equal(ended.status, 'ended', 'abort then SIGTERM completes the reply: not stuck');
    assert.equal(fs.existsSync(path.join(h.cwd, 'perm.txt')), false, 'the unapproved command never ran');
  });

  async function type(pane: Pane, text: string): Promise<void> {
    await tmux.sendKeys(pane.id, text, { literal: true });
    await new Promise((r) => setTimeout(r, 300));
    await tmux.sendKeys(pane.id, 'Enter');
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForHealth(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/global/health`, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error(`opencode --port ${port} did not answer /global/health`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
