/**
 * Real-harness tier for GitHub Copilot CLI (issue 16): the pinned `copilot` (1.0.102) runs offline
 * against the fake model (BYOK, COPILOT_OFFLINE), in print mode and interactively through the BUILT
 * wrapper in a private tmux, and every step is asserted through what a real daemon reports (`muster
 * ls --json`, SSE). One isolated home, one daemon and one tmux server serve the whole file (each
 * scenario asserts on its own session ids), to keep the tier's time down.
 *
 * The daemon also gets Copilot's environment (PATH to the pinned CLI, the BYOK variables) and a second
 * fake model as the goal auditor: `muster goal run copilot` and the `cli:copilot` auditor run copilot
 * from the daemon's side. `muster resume` opens its window on this tmux server, whose global
 * environment is set to the same (a pane gets the server's environment, not the test's).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, lastUserText, startFakeModel, type FakeModel, type Reply } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, runCli, startHarnessDaemon, startTmux } from './kit/index.ts';
import type { DaemonEvent, HarnessCli, HarnessDaemon, HarnessEnv, Pane, Tmux } from './kit/index.ts';
import type { Session } from '../../src/core/session.ts';

const SCENARIO_MS = 240_000;
const verdict = (allDone: boolean): Reply => ({ text: JSON.stringify({ allDone, remaining: allDone ? [] : ['add the tests'], needsUser: false }) });
const CONTINUE = verdict(false);
const DONE = verdict(true);
/** Copilot's environment variables the daemon needs to run copilot itself (goal runs, the auditor, resume). */
const COPILOT_VARS = /^(PATH|COPILOT_.*)$/;

/** Every regular file below `dir` whose path `keep` accepts, with its bytes. */
function snapshot(dir: string, keep: (rel: string) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && keep(path.relative(dir, p))) out.set(path.relative(dir, p), fs.readFileSync(p, 'latin1'));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

const isHook = (sessionId: string, status: string) => (e: DaemonEvent) => e.type === 'hook.event.received' && e.data['sessionId'] === sessionId && e.data['status'] === status;

describe('copilot 1.0.102 against the fake model', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-copilot-'));
  let model: FakeModel;
  let auditor: FakeModel;
  let cli: HarnessCli;
  let tmux: Tmux;
  let h: HarnessEnv;
  let d: HarnessDaemon;
  let muster: string;
  const pids = new Set<number>();
  const started = Date.now();

  const tmuxRun = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile('tmux', ['-S', tmux.socket, ...args], { timeout: 10_000, encoding: 'utf8' }, (e, o, err) => (e ? reject(new Error(err || e.message)) : resolve(o))));

  before(async () => {
    cli = await ensureHarnessCli('copilot');
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    auditor = await startFakeModel();
    tmux = await startTmux(path.join(root, 'tmux'));
    h = harnessEnv('copilot', { root, modelUrl: model.url, binDir: cli.binDir });
    const copilotEnv = Object.fromEntries(Object.entries(h.env).filter(([k]) => COPILOT_VARS.test(k)));
    for (const [k, v] of Object.entries({ ...copilotEnv, HOME: h.home })) await tmuxRun(['set-environment', '-g', k, String(v)]);
    d = await startHarnessDaemon({
      homes: [h], root,
      env: { ...copilotEnv, MUSTER_TMUX_SOCKET: tmux.socket, MUSTER_AUDITOR_BASE_URL: `${auditor.url}/v1`, MUSTER_AUDITOR_API_KEY: 'sk-audit' },
    });
    // The built CLI the daemon runs (its private copy of dist/), for the wrapper in the panes.
    muster = fs.readFileSync(`/proc/${d.pid}/cmdline`, 'utf8').split('\0').find((a) => a.endsWith('cli.js')) ?? '';
    assert.ok(muster, 'the daemon runs a cli.js');
  });

  after(async () => {
    for (const pid of pids) {
      try { process.kill(pid, 'SIGKILL'); } catch {}
    }
    await tmux?.kill();
    await d?.close();
    await model?.close();
    await auditor?.close();
    fs.rmSync(root, { recursive: true, force: true });
    console.log(`[copilot] harness file took ${Math.round((Date.now() - started) / 1000)} s`);
  });

  /** Types `text`, then Enter until the fake model has seen it (a TUI still drawing drops keys). */
  async function prompt(pane: Pane, text: string): Promise<void> {
    const mark = model.requests.length;
    await tmux.sendKeys(pane.id, text, { literal: true });
    for (let attempt = 0; attempt < 4; attempt++) {
      await new Promise((r) => setTimeout(r, 400));
      await tmux.sendKeys(pane.id, 'Enter');
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        if (model.requests.slice(mark).some((r) => lastUserText(r).includes(text))) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`prompt not submitted: ${text}\n${await tmux.capture(pane.id)}`);
  }

  const sessionDirs = (): string[] => fs.readdirSync(path.join(h.configDir, 'session-state')).filter((n) => /^[0-9a-f-]{36}$/.test(n)).sort();
  const listed = async (id: string): Promise<Session | undefined> => (await d.listSessions()).find((s) => s.id === id);

  it('copilot -p: dormant after exit, with tokens, title, model and an unknown (not $0) cost', { timeout: SCENARIO_MS }, async () => {
    const r = await runCli(cli.bin, ['-p', 'say hi from print mode', '--output-format', 'json'], { cwd: h.cwd, env: h.env, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    const id = (JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { sessionId: string }).sessionId;
    const s = await d.waitFor((x) => x.id === id && !x.live && x.tokens.output > 0, 20_000, 'print session listed dormant with its tokens');
    assert.equal(s.harness, 'copilot');
    assert.equal(s.status, 'ended');
    assert.equal(s.title, 'say hi from print mode');
    assert.equal(s.cwd, h.cwd);
    assert.equal(s.model, 'fake-model');
    assert.deepEqual(s.tokens, { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 }, 'the fake model default usage, counted once');
    assert.equal(s.costUsd, null, 'a model the price table does not know is unpriced');
    assert.deepEqual(s.resumeArgv, ['copilot', `--resume=${id}`]);
    assert.equal(s.canEnd, false);
  });

  let tuiId = '';

  it('muster copilot --name demo in tmux: idle → working → waiting (permission prompt) → idle, a page answered from the CLI, a goal through agentStop, /exit → dormant; the user\'s files untouched', { timeout: SCENARIO_MS }, async () => {
    // The user's own files in COPILOT_HOME (the rest is Copilot's state: sessions, logs, config.json).
    const keep = (rel: string) => rel === 'settings.json' || rel.startsWith('mcp-config') || rel.startsWith('hooks');
    fs.writeFileSync(path.join(h.configDir, 'settings.json'), '{ "model": "fake-model" }\n');
    const before = snapshot(h.configDir, keep);
    const events = await d.events();
    const pane = await tmux.newPane([process.execPath, muster, 'copilot', '--name', 'demo'], { cwd: h.cwd, env: { ...h.env, MUSTER_HOME: d.env.MUSTER_HOME } });
    pids.add(pane.pid);
    const idle = await d.waitFor((s) => s.harness === 'copilot' && s.live && s.title === 'demo', 60_000, 'the wrapped session listed live').catch(async (e: unknown) => {
      throw new Error(`${(e as Error).message}\n--- pane ---\n${await tmux.capture(pane.id)}`);
    });
    const id = idle.id;
    tuiId = id;
    for (const p of idle.pids) pids.add(p);
    assert.equal(idle.status, 'idle', 'a new TUI waits for its first prompt');
    assert.notEqual(idle.pid, pane.pid, 'the session is the native CLI, not the wrapper or the npm loader');
    assert.match(fs.readFileSync(`/proc/${idle.pid}/cmdline`, 'utf8'), /copilot-linux-x64\/copilot\0/);
    const paned = await d.waitFor((s) => s.id === id && s.pane?.id === pane.id, 30_000, 'mapped to its pane');
    assert.equal(paned.pane?.socket, tmux.socket);
    await tmux.waitForText(pane.id, /Interactive ·/, 60_000);

    await prompt(pane, 'SLOW6 hello from the wrapper');
    await events.waitFor('userPromptSubmitted → working', isHook(id, 'working'), 30_000);
    // Pushed on SSE as the hub applies it (polling `muster ls` on a loaded machine can miss a short turn).
    await events.waitFor('session.status.changed working', (e) => e.type === 'session.status.changed' && e.data['id'] === id && e.data['status'] === 'working', 10_000);
    await d.waitFor((s) => s.id === id && s.status === 'idle' && s.tokens.output >= 10, 30_000, 'idle after the reply');

    await prompt(pane, `RUNCMD: echo perm > ${path.join(h.cwd, 'p.txt')}`);
    const waiting = await d.waitFor((s) => s.id === id && s.status === 'waiting', 30_000, 'waiting on the permission prompt');
    assert.match(String(waiting.waitingFor), /echo perm/);
    await tmux.waitForText(pane.id, /Do you want to run this command\?/, 15_000);
    await tmux.sendKeys(pane.id, 'Enter');
    await d.waitFor((s) => s.id === id && s.status === 'idle' && s.tokens.output >= 30, 30_000, 'idle again after the approval');
    assert.ok(fs.existsSync(path.join(h.cwd, 'p.txt')), 'the approved command ran');

    // A page through Muster's MCP tool (allowed by the wrapper), attributed by the wrapper's headers.
    await prompt(pane, 'TOOLCALL: muster/ask_operator {"question":"Which colour, copilot?"}');
    const opened = await events.waitFor('page.opened', (e) => e.type === 'page.opened', 60_000);
    const page = (opened.data['page'] ?? opened.data) as { id: string; sessionId: string; harness: string };
    assert.equal(page.sessionId, id);
    assert.equal(page.harness, 'copilot');
    const answered = await d.muster(['answer', page.id, 'blue']);
    assert.equal(answered.code, 0, answered.stderr);
    await model.waitForRequest((r) => JSON.stringify(r.body).includes('\\"answer\\":\\"blue\\"'), 60_000);
    await d.waitFor((s) => s.id === id && s.status === 'idle' && s.tokens.output >= 50, 30_000, 'idle after the answered tool call');

    // A goal on the live session: each agentStop is audited and answered with a block, so one process runs the turns.
    auditor.enqueue(CONTINUE, CONTINUE, DONE);
    const set = await d.muster(['goal', 'set', id, 'make the project shippable', '--auditor', 'openai/fake-model']);
    assert.equal(set.code, 0, set.stderr);
    const mark = model.requests.length;
    await prompt(pane, 'start on the goal');
    const deadline = Date.now() + 90_000;
    let goal: { status: string; turns: number } = { status: 'active', turns: 0 };
    while (goal.status === 'active' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      goal = (await d.muster(['goal', 'show', id])).json['goal'] as typeof goal;
    }
    assert.deepEqual([goal.status, goal.turns], ['complete', 3], `the goal: ${JSON.stringify(goal)}\n${await tmux.capture(pane.id)}`);
    assert.equal(auditor.pending(), 0, 'every verdict was used');
    const prompts = model.requests.slice(mark).map((r) => lastUserText(r)).filter((t) => !t.startsWith('tool'));
    assert.equal(prompts.length, 3, `three model calls in the one process: ${JSON.stringify(prompts)}`);
    await d.waitFor((s) => s.id === id && s.status === 'idle', 30_000, 'idle once the goal is complete');

    await tmux.sendKeys(pane.id, '/exit', { literal: true });
    await new Promise((r) => setTimeout(r, 400));
    await tmux.sendKeys(pane.id, 'Enter');
    await events.waitFor('sessionEnd → ended', isHook(id, 'ended'), 30_000);
    const ended = await d.waitFor((s) => s.id === id && !s.live, 30_000, 'dormant after /exit');
    assert.equal(ended.status, 'ended');
    assert.equal(ended.title, 'demo');
    events.close();
    assert.deepEqual(snapshot(h.configDir, keep), before, "the user's settings and MCP config are byte-identical");
    // The wrapper removes its launch files once copilot (and its npm loader) has exited.
    const launches = path.join(d.env.MUSTER_HOME as string, 'launch');
    for (const until = Date.now() + 10_000; fs.readdirSync(launches).length > 0 && Date.now() < until;) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(fs.readdirSync(launches), [], 'the launch files (the token) are gone');
  });

  it('muster resume reopens it in a tmux window (live before its first prompt), muster end sends SIGTERM to the native CLI → dormant', { timeout: SCENARIO_MS }, async () => {
    assert.ok(tuiId, 'needs the wrapped session');
    const r = await d.muster(['resume', tuiId]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json['outcome'], 'resumed');
    assert.deepEqual(r.json['argv'], ['copilot', `--resume=${tuiId}`]);
    const live = await d.waitFor((s) => s.id === tuiId && s.live, 60_000, 'resumed: live by its --resume argv');
    for (const p of live.pids) pids.add(p);
    assert.equal(live.status, 'idle');
    const paneId = (r.json['pane'] as { id: string }).id;
    await d.waitFor((s) => s.id === tuiId && s.pane?.id === paneId, 30_000, 'mapped to the window resume opened');
    const end = await d.muster(['end', tuiId]);
    assert.equal(end.code, 0, end.stderr);
    assert.deepEqual(end.json, { ok: true, ended: true, id: tuiId });
    const s = await d.waitFor((x) => x.id === tuiId && !x.live, 20_000, 'dormant after SIGTERM');
    assert.equal(s.status, 'ended');
    assert.equal((await d.muster(['end', tuiId])).json.error?.code, 'not_running');
  });

  it('SIGKILL: the leftover inuse files never make the session live', { timeout: SCENARIO_MS }, async () => {
    const pane = await tmux.newPane([cli.bin], { cwd: h.cwd, env: h.env });
    pids.add(pane.pid);
    await tmux.waitForText(pane.id, /Interactive ·/, 60_000);
    await prompt(pane, 'hello before sigkill');
    const s = await d.waitFor((x) => x.live && x.title === 'hello before sigkill' && x.status === 'idle' && x.tokens.output > 0, 30_000, 'plain copilot live after a turn');
    const native = s.pid as number;
    const events = await d.events();
    const t0 = Date.now();
    process.kill(native, 'SIGKILL');
    const e = await events.waitFor('live: false on SSE', (x) => x.type === 'session.status.changed' && x.data['id'] === s.id && x.data['live'] === false, 10_000);
    events.close();
    console.log(`[copilot] not live ${e.at - t0} ms after SIGKILL`);
    assert.ok(e.at - t0 <= 3_000, `not live after ${e.at - t0} ms`);
    assert.ok(fs.existsSync(path.join(h.configDir, 'session-state', s.id, `inuse.${native}.lock`)), 'Copilot left its lock file behind');
    const again = await listed(s.id);
    assert.deepEqual([again?.live, again?.status], [false, 'ended']);
    assert.ok((await d.diagnostics('copilot')).staleRegistryFiles >= 1);
    assert.equal((await d.muster(['end', s.id])).json.error?.code, 'not_running');
  });

  it('muster goal run copilot: continue, continue, complete → exactly three turns, tokens counted; a cli:copilot audit leaves no session behind', { timeout: SCENARIO_MS }, async () => {
    auditor.enqueue(CONTINUE, CONTINUE, DONE);
    const run = async (auditorSpec: string) => {
      const r = await d.muster(['goal', 'run', 'copilot', '--cwd', h.cwd, '--auditor', auditorSpec, '--json', 'make the project shippable']);
      const lines = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      return { code: r.code, stderr: r.stderr, turns: lines.filter((l) => l['type'] === 'goal.turn'), last: lines.at(-1) as { goal: { turns: number; tokensUsed: number; auditTokens: number }; outcome: string } };
    };
    const a = await run('openai/fake-model');
    assert.equal(a.code, 0, a.stderr);
    assert.equal(a.last.outcome, 'complete');
    assert.equal(a.turns.length, 3);
    assert.equal(a.last.goal.turns, 3);
    assert.equal(auditor.pending(), 0);
    assert.deepEqual(a.turns.map((t) => t['tokens']), [110, 110, 110], 'each turn\'s tokens, read from the session\'s usage records');
    assert.ok(a.last.goal.auditTokens > 0 && a.last.goal.tokensUsed === 330 + a.last.goal.auditTokens);

    // The session's own CLI as the auditor: its verdict comes from the same fake model (turn, then audit).
    const dirs = sessionDirs();
    model.enqueue({ text: 'the project ships' }, DONE);
    const b = await run('cli:copilot');
    assert.equal(b.code, 0, b.stderr);
    assert.deepEqual([b.last.outcome, b.turns.length], ['complete', 1]);
    assert.ok(b.last.goal.auditTokens > 0, 'the audit\'s tokens, read before its session was removed');
    const added = sessionDirs().filter((x) => !dirs.includes(x));
    assert.equal(added.length, 1, `only the goal's own session is left: ${JSON.stringify(added)}`);
  });

  it('hooks install / uninstall --harness copilot: a plain copilot reports through settings.json, and the original bytes come back', { timeout: SCENARIO_MS }, async () => {
    const settings = path.join(h.configDir, 'settings.json');
    const original = '{ "model": "fake-model",\n  "hooks": { "agentStop": [ { "type": "command", "bash": "true", "timeoutSec": 5 } ] } }\n';
    fs.writeFileSync(settings, original);
    for (let i = 0; i < 2; i++) assert.equal((await d.muster(['hooks', 'install', '--harness', 'copilot'])).code, 0);
    const status = await d.muster(['hooks', 'status', '--harness', 'copilot']);
    assert.equal(status.code, 0, status.stderr);
    const events = await d.events();
    const r = await runCli(cli.bin, ['-p', 'hello with installed hooks', '--output-format', 'json'], { cwd: h.cwd, env: { ...h.env, MUSTER_HOME: d.env.MUSTER_HOME }, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    const id = (JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { sessionId: string }).sessionId;
    await events.waitFor('sessionEnd from the installed hooks', isHook(id, 'ended'), 30_000);
    assert.ok(events.events.some(isHook(id, 'working')), 'userPromptSubmitted arrived too');
    events.close();
    for (let i = 0; i < 2; i++) assert.equal((await d.muster(['hooks', 'uninstall', '--harness', 'copilot'])).code, 0);
    assert.equal(fs.readFileSync(settings, 'utf8'), original, 'byte-identical after uninstall');
  });
});
