/**
 * Real-harness tier for the Claude Code source: the pinned `claude` CLI (2.1.332) runs offline
 * against the fake model, in print mode and interactively in a private tmux, and every step is
 * asserted through what the source lists. `listSessions` is the seam the lead will switch to
 * `muster ls --json` against the real daemon.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, runCli, startTmux } from './kit/index.ts';
import type { HarnessCli, HarnessEnv, Pane, Tmux } from './kit/index.ts';
import { createClaudeSource } from '../../src/sources/claude/index.ts';
import type { Session } from '../../src/sources/session.ts';

const SCENARIO_MS = 150_000;

describe('claude 2.1.332 against the fake model', () => {
  let model: FakeModel;
  let cli: HarnessCli;
  let tmux: Tmux;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-claude-'));
  const started: number[] = [];
  let n = 0;

  before(async () => {
    cli = await ensureHarnessCli('claude');
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    tmux = await startTmux(path.join(root, 'tmux'));
  });

  after(async () => {
    for (const pid of started) {
      try { process.kill(pid, 'SIGKILL'); } catch {}
    }
    await tmux?.kill();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** A fresh isolated Claude home per scenario. */
  const freshEnv = (): HarnessEnv => harnessEnv('claude', { root: path.join(root, `s${++n}`), modelUrl: model.url, binDir: cli.binDir });

  /** What Muster reports for this Claude home (later: `muster ls --json`). */
  const source = (h: HarnessEnv) => createClaudeSource({ home: h.configDir });
  const listSessions = (h: HarnessEnv): Promise<Session[]> => source(h).list();

  async function waitForSession(h: HarnessEnv, what: string, pred: (s: Session) => boolean, timeoutMs = 30_000): Promise<Session> {
    const deadline = Date.now() + timeoutMs;
    let last: Session[] = [];
    for (;;) {
      last = await listSessions(h);
      const hit = last.find(pred);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms; sessions: ${JSON.stringify(last, null, 1)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function startInteractive(h: HarnessEnv, args: string[] = []): Promise<{ pane: Pane; session: Session }> {
    const pane = await tmux.newPane([cli.bin, '--permission-mode', 'manual', ...args], { cwd: h.cwd, env: h.env });
    started.push(pane.pid);
    const session = await waitForSession(h, 'interactive session live and idle', (s) => s.live && s.pids.includes(pane.pid) && s.status === 'idle');
    // The TUI accepts input once its prompt box is drawn.
    await tmux.waitForText(pane.id, /❯|>/, 20_000);
    return { pane, session };
  }

  async function type(pane: Pane, text: string): Promise<void> {
    await tmux.sendKeys(pane.id, text, { literal: true });
    await new Promise((r) => setTimeout(r, 300)); // let the TUI take the text before Enter
    await tmux.sendKeys(pane.id, 'Enter');
  }

  it('claude -p: dormant after exit, with tokens, title and cost right', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const r = await runCli(cli.bin, ['-p', 'say hi from print mode', '--output-format', 'json'], { cwd: h.cwd, env: h.env, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    const id = (JSON.parse(r.stdout) as { session_id: string }).session_id;
    const list = await listSessions(h);
    assert.equal(list.length, 1);
    const s = list[0];
    assert.ok(s);
    assert.equal(s.id, id);
    assert.equal(s.live, false);
    assert.equal(s.status, 'ended');
    assert.equal(s.canEnd, false);
    assert.equal(s.title, 'say hi from print mode');
    assert.equal(s.cwd, h.cwd);
    assert.equal(s.model, 'claude-opus-5-5');
    assert.deepEqual(s.tokens, { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 }, 'the fake model default usage, counted once');
    assert.ok(s.costUsd !== null && s.costUsd > 0, 'cost from the transcript cost record (the model is not in the price table)');
    assert.deepEqual(s.resumeArgv, ['claude', '--resume', id]);
    assert.ok(s.cacheExpiresAt && Date.parse(s.cacheExpiresAt) > Date.parse(s.lastActivityAt ?? '') - 1);
  });

  it('interactive claude in tmux: idle, working, waiting on a permission prompt, idle again, /exit → ended', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const { pane, session } = await startInteractive(h);
    assert.equal(session.pid, pane.pid, 'the registry names the pane process');
    assert.equal(session.canEnd, true);
    const id = session.id;

    const changed: string[] = [];
    const stopWatch = source(h).watch((c) => changed.push(...(c.ids.length > 0 ? c.ids : ['*'])));
    await type(pane, 'SLOW6 please say hi');
    await waitForSession(h, 'working during a slow reply', (s) => s.id === id && s.status === 'working');
    await new Promise((r) => setTimeout(r, 200)); // one debounce window
    await stopWatch();
    assert.ok(changed.includes(id), `watch reported the session (got ${JSON.stringify(changed)})`);
    await waitForSession(h, 'idle after the reply', (s) => s.id === id && s.status === 'idle');

    const target = path.join(h.cwd, 'perm.txt');
    await type(pane, `TOOLCALL: Write {"file_path":${JSON.stringify(target)},"content":"x"}`);
    const waiting = await waitForSession(h, 'waiting on the permission prompt', (s) => s.id === id && s.status === 'waiting');
    assert.equal(waiting.waitingFor, 'permission prompt');
    assert.equal(waiting.live, true);
    // Answer once the dialog is drawn: its first, selected option is "Yes".
    await tmux.waitForText(pane.id, /Do you want to/, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    await tmux.sendKeys(pane.id, 'Enter');
    const idle = await waitForSession(h, 'idle again after approval', (s) => s.id === id && s.status === 'idle' && s.tokens.output >= 30);
    assert.equal(idle.waitingFor, null);
    assert.ok(fs.existsSync(target), 'the approved Write ran');
    assert.equal(idle.title, 'SLOW6 please say hi');

    await type(pane, '/exit');
    const ended = await waitForSession(h, 'ended after /exit', (s) => s.id === id && !s.live);
    assert.equal(ended.status, 'ended');
    assert.equal(ended.canEnd, false);
  });

  it('SIGTERM through end(): the session ends cleanly and its registry entry goes away', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const { pane, session } = await startInteractive(h);
    await type(pane, 'hello before sigterm');
    await waitForSession(h, 'first turn done', (s) => s.id === session.id && s.status === 'idle' && s.tokens.output > 0);
    const src = source(h);
    assert.deepEqual(await src.end(session.id), { outcome: 'ended', signal: 'SIGTERM', pid: pane.pid });
    const s = await waitForSession(h, 'dormant after SIGTERM', (x) => x.id === session.id && !x.live, 10_000);
    assert.equal(s.status, 'ended');
    assert.equal(fs.existsSync(path.join(h.configDir, 'sessions', `${pane.pid}.json`)), false, 'registry entry removed');
    assert.equal(src.diagnostics().staleRegistryFiles, 0);
    assert.equal((await src.end(session.id)).outcome, 'not_running');
  });

  it('SIGKILL: the leftover registry file does not make the session live (within 2 s)', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const { pane, session } = await startInteractive(h);
    await type(pane, 'hello before sigkill');
    await waitForSession(h, 'first turn done', (s) => s.id === session.id && s.status === 'idle' && s.tokens.output > 0);
    process.kill(pane.pid, 'SIGKILL');
    const t0 = Date.now();
    const s = await waitForSession(h, 'not live after SIGKILL', (x) => x.id === session.id && !x.live, 2_000);
    assert.ok(Date.now() - t0 <= 2_000);
    assert.equal(s.status, 'ended');
    assert.ok(fs.existsSync(path.join(h.configDir, 'sessions', `${pane.pid}.json`)), 'Claude left its registry file behind');
    const src = source(h);
    await src.list();
    assert.equal(src.diagnostics().staleRegistryFiles, 1);
    assert.equal((await src.end(session.id)).outcome, 'not_running');
  });

  it('claude --resume: a dormant session is live again in the new process, history kept', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const r = await runCli(cli.bin, ['-p', 'first turn', '--output-format', 'json'], { cwd: h.cwd, env: h.env, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    const id = (JSON.parse(r.stdout) as { session_id: string }).session_id;
    const { pane, session } = await startInteractive(h, ['--resume', id]);
    assert.equal(session.id, id);
    assert.equal(session.title, 'first turn');
    await type(pane, 'second turn');
    const s = await waitForSession(h, 'resumed turn counted', (x) => x.id === id && x.status === 'idle' && x.tokens.output >= 20);
    assert.equal(s.live, true);
    assert.equal(s.pid, pane.pid);
    assert.equal((await listSessions(h)).length, 1, 'one session, not two');
    await type(pane, '/exit');
    await waitForSession(h, 'ended after /exit', (x) => x.id === id && !x.live);
  });
});
