/**
 * Real-harness tier for the Claude Code source: the pinned `claude` CLI (2.1.332) runs offline
 * against the fake model, in print mode and interactively in a private tmux, and every step is
 * asserted through what `muster ls --json` reports from a real daemon (the built CLI) reading that
 * scenario's isolated Claude home. Ending goes through `muster end`; stale registry counts, which
 * ls cannot show, come from the daemon's GET /api/diagnostics.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, runCli, startHarnessDaemon, startTmux } from './kit/index.ts';
import type { HarnessCli, HarnessDaemon, HarnessEnv, Pane, Tmux } from './kit/index.ts';
import type { Session } from '../../src/core/session.ts';

const SCENARIO_MS = 150_000;

describe('claude 2.1.332 against the fake model', () => {
  let model: FakeModel;
  let cli: HarnessCli;
  let tmux: Tmux;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-claude-'));
  const started: number[] = [];
  const daemons: HarnessDaemon[] = [];
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
    for (const d of daemons) await d.close();
    await tmux?.kill();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** A fresh isolated Claude home per scenario, and a daemon that reads exactly that home. */
  async function scenario(): Promise<{ h: HarnessEnv; d: HarnessDaemon }> {
    const sRoot = path.join(root, `s${++n}`);
    const h = harnessEnv('claude', { root: sRoot, modelUrl: model.url, binDir: cli.binDir });
    const d = await startHarnessDaemon({ homes: [h], root: sRoot });
    daemons.push(d);
    return { h, d };
  }

  async function startInteractive(h: HarnessEnv, d: HarnessDaemon, args: string[] = []): Promise<{ pane: Pane; session: Session }> {
    const pane = await tmux.newPane([cli.bin, '--permission-mode', 'manual', ...args], { cwd: h.cwd, env: h.env });
    started.push(pane.pid);
    const session = await d.waitFor((s) => s.live && s.pids.includes(pane.pid) && s.status === 'idle', 30_000, 'interactive session live and idle');
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
    const { h, d } = await scenario();
    const r = await runCli(cli.bin, ['-p', 'say hi from print mode', '--output-format', 'json'], { cwd: h.cwd, env: h.env, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    const id = (JSON.parse(r.stdout) as { session_id: string }).session_id;
    // The transcript's last lines may still be on their way through the daemon's watch, and the exit is seen by
    // the liveness sweep (every 500 ms), which can come after the last line was read.
    const list = await d.waitForList((l) => l.some((x) => x.id === id && x.tokens.output > 0 && x.costUsd !== null && !x.live), 15_000, 'print session listed and dormant');
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

  it('claude --resume --fork-session: the fork counts only its own turn and names its parent', { timeout: SCENARIO_MS }, async () => {
    const { h, d } = await scenario();
    const print = async (args: string[]): Promise<{ session_id: string; total_cost_usd: number }> => {
      const r = await runCli(cli.bin, ['-p', ...args, '--output-format', 'json'], { cwd: h.cwd, env: h.env, timeoutMs: 90_000 });
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as { session_id: string; total_cost_usd: number };
    };
    const id = (await print(['first turn'])).session_id;
    await print(['--resume', id, 'second turn']);
    const forked = await print(['--resume', id, '--fork-session', 'fork turn']);
    assert.notEqual(forked.session_id, id);
    const list = await d.waitForList((l) => l.some((x) => x.id === forked.session_id && x.costUsd !== null && !x.live), 15_000, 'fork listed');
    const parent = list.find((x) => x.id === id);
    const fork = list.find((x) => x.id === forked.session_id);
    assert.equal(fork?.forkedFrom, id);
    assert.equal(parent?.forkedFrom, null);
    assert.deepEqual(parent?.tokens, { input: 200, output: 20, cacheRead: 0, cacheWrite: 0 });
    assert.deepEqual(fork?.tokens, { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 }, 'the copied turns are the parent\'s');
    // Claude Code's own running total of the fork includes the parent's turns: that is the real spend of both.
    const sum = (parent?.costUsd ?? NaN) + (fork?.costUsd ?? NaN);
    assert.ok(Math.abs(sum - forked.total_cost_usd) < 1e-6, `${sum} vs ${forked.total_cost_usd}`);
    assert.ok((fork?.costUsd ?? 0) > 0 && (fork?.costUsd ?? 0) < (parent?.costUsd ?? 0));
  });

  it('interactive claude in tmux: idle, working, waiting on a permission prompt, idle again, /exit → ended', { timeout: SCENARIO_MS }, async () => {
    const { h, d } = await scenario();
    const { pane, session } = await startInteractive(h, d);
    assert.equal(session.pid, pane.pid, 'the registry names the pane process');
    assert.equal(session.canEnd, true);
    const id = session.id;

    // The daemon pushes the change (SSE) as well as listing it.
    const events = await d.events();
    await type(pane, 'SLOW6 please say hi');
    await d.waitFor((s) => s.id === id && s.status === 'working', 30_000, 'working during a slow reply');
    await events.waitFor('session.status.changed to working', (e) => e.type === 'session.status.changed' && e.data['id'] === id && e.data['status'] === 'working', 5_000);
    events.close();
    await d.waitFor((s) => s.id === id && s.status === 'idle', 30_000, 'idle after the reply');

    const target = path.join(h.cwd, 'perm.txt');
    await type(pane, `TOOLCALL: Write {"file_path":${JSON.stringify(target)},"content":"x"}`);
    const waiting = await d.waitFor((s) => s.id === id && s.status === 'waiting', 30_000, 'waiting on the permission prompt');
    assert.equal(waiting.waitingFor, 'permission prompt');
    assert.equal(waiting.live, true);
    // Answer once the dialog is drawn: its first, selected option is "Yes".
    await tmux.waitForText(pane.id, /Do you want to/, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    await tmux.sendKeys(pane.id, 'Enter');
    const idle = await d.waitFor((s) => s.id === id && s.status === 'idle' && s.tokens.output >= 30, 30_000, 'idle again after approval');
    assert.equal(idle.waitingFor, null);
    assert.ok(fs.existsSync(target), 'the approved Write ran');
    assert.equal(idle.title, 'SLOW6 please say hi');

    await type(pane, '/exit');
    const ended = await d.waitFor((s) => s.id === id && !s.live, 30_000, 'ended after /exit');
    assert.equal(ended.status, 'ended');
    assert.equal(ended.canEnd, false);
  });

  it('SIGTERM through end(): the session ends cleanly and its registry entry goes away', { timeout: SCENARIO_MS }, async () => {
    const { h, d } = await scenario();
    const { pane, session } = await startInteractive(h, d);
    await type(pane, 'hello before sigterm');
    await d.waitFor((s) => s.id === session.id && s.status === 'idle' && s.tokens.output > 0, 30_000, 'first turn done');
    const r = await d.muster(['end', session.id]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json, { ok: true, ended: true, id: session.id });
    const s = await d.waitFor((x) => x.id === session.id && !x.live, 10_000, 'dormant after SIGTERM');
    assert.equal(s.status, 'ended');
    assert.ok(await tmux.isDead(pane.id), 'the pane process exited');
    assert.equal(fs.existsSync(path.join(h.configDir, 'sessions', `${pane.pid}.json`)), false, 'registry entry removed');
    assert.equal((await d.diagnostics('claude')).staleRegistryFiles, 0);
    const again = await d.muster(['end', session.id]);
    assert.notEqual(again.code, 0);
    assert.equal(again.json.error?.code, 'not_running');
  });

  it('SIGKILL: the leftover registry file does not make the session live (within 2 s)', { timeout: SCENARIO_MS }, async () => {
    const { h, d } = await scenario();
    const { pane, session } = await startInteractive(h, d);
    await type(pane, 'hello before sigkill');
    await d.waitFor((s) => s.id === session.id && s.status === 'idle' && s.tokens.output > 0, 30_000, 'first turn done');
    const events = await d.events();
    process.kill(pane.pid, 'SIGKILL');
    const t0 = Date.now();
    const e = await events.waitFor('live: false on SSE', (x) => x.type === 'session.status.changed' && x.data['id'] === session.id && x.data['live'] === false, 5_000);
    assert.ok(e.at - t0 <= 2_000, `not live after ${e.at - t0} ms`);
    const s = (await d.listSessions()).find((x) => x.id === session.id);
    assert.equal(s?.live, false, 'muster ls agrees');
    assert.equal(s.status, 'ended');
    assert.ok(fs.existsSync(path.join(h.configDir, 'sessions', `${pane.pid}.json`)), 'Claude left its registry file behind');
    assert.equal((await d.diagnostics('claude')).staleRegistryFiles, 1);
    assert.equal((await d.muster(['end', session.id])).json.error?.code, 'not_running');
  });

  it('claude --resume: a dormant session is live again in the new process, history kept', { timeout: SCENARIO_MS }, async () => {
    const { h, d } = await scenario();
    const r = await runCli(cli.bin, ['-p', 'first turn', '--output-format', 'json'], { cwd: h.cwd, env: h.env, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    const id = (JSON.parse(r.stdout) as { session_id: string }).session_id;
    const { pane, session } = await startInteractive(h, d, ['--resume', id]);
    assert.equal(session.id, id);
    assert.equal(session.title, 'first turn');
    await type(pane, 'second turn');
    const s = await d.waitFor((x) => x.id === id && x.status === 'idle' && x.tokens.output >= 20, 30_000, 'resumed turn counted');
    assert.equal(s.live, true);
    assert.equal(s.pid, pane.pid);
    assert.equal((await d.listSessions()).length, 1, 'one session, not two');
    await type(pane, '/exit');
    await d.waitFor((x) => x.id === id && !x.live, 30_000, 'ended after /exit');
  });
  it('claude --resume of a live session: one row, each process with its own pane; end --pid ends one', { timeout: SCENARIO_MS }, async () => {
    const sRoot = path.join(root, `s${++n}`);
    const h = harnessEnv('claude', { root: sRoot, modelUrl: model.url, binDir: cli.binDir });
    // This daemon maps pids to the test's tmux panes.
    const d = await startHarnessDaemon({ homes: [h], root: sRoot, env: { MUSTER_TMUX_SOCKET: tmux.socket } });
    daemons.push(d);
    const { pane: first, session } = await startInteractive(h, d);
    await type(first, 'first turn');
    await d.waitFor((x) => x.id === session.id && x.status === 'idle' && x.tokens.output > 0, 30_000, 'first turn done');
    const second = await tmux.newPane([cli.bin, '--permission-mode', 'manual', '--resume', session.id], { cwd: h.cwd, env: h.env });
    started.push(second.pid);
    const both = await d.waitFor((x) => x.id === session.id && x.processes?.length === 2 && x.processes.every((p) => p.pane !== null), 30_000, 'two processes, each in its pane');
    assert.equal((await d.listSessions()).filter((x) => x.id === session.id).length, 1, 'one row');
    assert.deepEqual(both.processes?.map((p) => [p.pid, p.pane?.id]), [[first.pid, first.id], [second.pid, second.id]]);
    const ended = await d.muster(['end', session.id, '--pid', String(first.pid)]);
    assert.equal(ended.code, 0, ended.stderr);
    const after = await d.waitFor((x) => x.id === session.id && x.processes?.length === 1, 30_000, 'one process left');
    assert.equal(after.live, true);
    assert.equal(after.processes?.[0]?.pid, second.pid);
    assert.ok(await tmux.isDead(first.id), 'the first claude exited');
    assert.equal(await tmux.isDead(second.id), false, 'the second runs on');
    await type(second, '/exit');
    await d.waitFor((x) => x.id === session.id && !x.live, 30_000, 'ended after /exit');
  });
});
