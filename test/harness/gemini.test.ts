/**
 * Real-harness tier for Gemini CLI: the pinned `gemini` (0.61.0) runs offline against the fake model
 * (Gemini's wire protocol), with Muster's extension installed once by `muster hooks install --harness
 * gemini` into an isolated home, and one real daemon (the built CLI) reading that home and mapping
 * panes on the test's tmux. Every step is asserted through `muster ls --json` (and SSE where ls cannot
 * show it). One daemon, one tmux, one home for the whole file: each gemini start costs seconds.
 *
 * Gemini writes nothing that says a session is live: liveness and status come from the extension's
 * hooks (their parent is the gemini worker, verified against the process table), the wrapper's
 * `--session-id`, or, for a gemini without hooks, a working-directory guess with the status unknown.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, lastUserText, startFakeModel, type FakeModel, type Reply } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, findFiles, harnessEnv, readJsonl, runCli, startHarnessDaemon, startTmux } from './kit/index.ts';
import type { HarnessCli, HarnessDaemon, HarnessEnv, Pane, Tmux } from './kit/index.ts';
import type { Session } from '../../src/core/session.ts';

const SCENARIO_MS = 240_000;
const verdict = (allDone: boolean, remaining: string[]): Reply => ({ text: JSON.stringify({ allDone, remaining, needsUser: false }) });
const CONTINUE = verdict(false, ['add the tests']);
const DONE = verdict(true, []);

interface Goal { id: string; status: string; turns: number; auditTokens: number }

/** The node-run CLI the kit daemon runs (its private copy of dist/), read back from its argv. */
function cliOf(d: HarnessDaemon): string {
  const cli = fs.readFileSync(`/proc/${d.pid}/cmdline`, 'utf8').split('\0').find((a) => a.endsWith('cli.js'));
  assert.ok(cli, 'no cli.js in the daemon\'s argv');
  return cli;
}

/** Parent pid of a process (the gemini loader of a worker). */
function ppidOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('gemini 0.61.0 against the fake model', () => {
  let model: FakeModel;
  let auditor: FakeModel;
  let cli: HarnessCli;
  let tmux: Tmux;
  let h: HarnessEnv;
  let d: HarnessDaemon;
  let muster: string;
  let env: NodeJS.ProcessEnv;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-gemini-'));
  const started: number[] = [];
  /** Verdicts the model gives when it is asked to audit (the cli:gemini auditor's runs). */
  const audits: Reply[] = [];

  before(async () => {
    cli = await ensureHarnessCli('gemini');
    model = await startFakeModel();
    model.onRequest((req) => (lastUserText(req).includes('You are an independent auditor') ? audits.shift() : undefined));
    model.onRequest(keywordHandler());
    auditor = await startFakeModel();
    tmux = await startTmux(path.join(root, 'tmux'));
    h = harnessEnv('gemini', { root, modelUrl: model.url, binDir: cli.binDir });
    // The daemon runs the cli:gemini auditor: it needs gemini on PATH and the fake model, as a user's daemon has their setup.
    const geminiVars = Object.fromEntries(['PATH', 'GOOGLE_GEMINI_BASE_URL', 'GEMINI_API_KEY', 'GEMINI_CLI_TRUST_WORKSPACE', 'NO_BROWSER'].map((k) => [k, h.env[k]]));
    d = await startHarnessDaemon({ homes: [h], root, env: { ...geminiVars, MUSTER_TMUX_SOCKET: tmux.socket, MUSTER_AUDITOR_BASE_URL: `${auditor.url}/v1`, MUSTER_AUDITOR_API_KEY: 'sk-audit' } });
    muster = cliOf(d);
    // Gemini's own processes find the daemon through MUSTER_HOME (the installed hooks), as a user's do.
    env = { ...h.env, MUSTER_HOME: d.env.MUSTER_HOME };
    // `muster resume` opens its window on this tmux server: it gets the isolated home and the fake model.
    for (const [k, v] of Object.entries(env)) if (v !== undefined) await tmuxRun(['set-environment', '-g', k, v]);
  });

  after(async () => {
    for (const pid of started) {
      try { process.kill(pid, 'SIGKILL'); } catch {}
    }
    await d?.close();
    await tmux?.kill();
    await model?.close();
    await auditor?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  function tmuxRun(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => execFile('tmux', ['-S', tmux.socket, ...args], { timeout: 10_000 }, (e, out) => (e ? reject(e) : resolve(out))));
  }

  async function type(pane: Pane, text: string): Promise<void> {
    await tmux.sendKeys(pane.id, text, { literal: true });
    await new Promise((r) => setTimeout(r, 400)); // let the TUI take the text before Enter
    await tmux.sendKeys(pane.id, 'Enter');
  }

  /** Answers Gemini's approval dialog with its first option, "Allow once". */
  async function approve(pane: Pane): Promise<void> {
    await tmux.waitForText(pane.id, /Allow execution of/, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    await tmux.sendKeys(pane.id, 'Enter');
  }

  const live = (id: string, what: string, extra: (s: Session) => boolean = () => true) => d.waitFor((s) => s.id === id && s.live && extra(s), 60_000, what);
  const dormant = (id: string, what: string, timeoutMs = 30_000) => d.waitFor((s) => s.id === id && !s.live, timeoutMs, what);

  it('gemini -p: listed dormant with its tokens and model, no cost for a model without a price, the extension inert outside the wrapper', { timeout: SCENARIO_MS }, async () => {
    const installed = await d.muster(['hooks', 'install', '--harness', 'gemini']);
    assert.equal(installed.code, 0, installed.stderr);
    assert.equal((installed.json['harnesses'] as { accepted: boolean }[])[0]?.accepted, true);
    const r = await runCli(cli.bin, [...h.argvPrefix, '-o', 'json', '--prompt=say hi from print mode'], { cwd: h.cwd, env, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /MCP issues/, 'no MCP URL outside the wrapper: the server is skipped, not failed');
    const id = (JSON.parse(r.stdout) as { session_id: string }).session_id;
    const s = await dormant(id, 'print session listed and dormant');
    assert.equal(s.status, 'ended');
    assert.equal(s.title, 'say hi from print mode');
    assert.equal(s.cwd, h.cwd);
    assert.equal(s.model, 'gemini-fake');
    assert.deepEqual(s.tokens, { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 });
    assert.equal(s.costUsd, null);
    assert.deepEqual(s.resumeArgv, ['gemini', '--resume', id]);
  });

  it('muster gemini in tmux: live in its pane, idle → working → waiting → idle, a page answered from the CLI, /quit → dormant', { timeout: SCENARIO_MS }, async () => {
    const events = await d.events();
    const pane = await tmux.newPane([process.execPath, muster, 'gemini', '--name', 'demo', ...h.argvPrefix], { cwd: h.cwd, env });
    started.push(pane.pid);
    const session = await d.waitFor((s) => s.harness === 'gemini' && s.live && s.title === 'demo' && s.status === 'idle' && s.pane?.id === pane.id, 60_000, 'wrapped session live and idle in its pane');
    const id = session.id;
    assert.equal(session.statusKnown, undefined, 'its hooks report: the status is known');
    assert.equal(ppidOf(ppidOf(session.pid!)), pane.pid, 'the worker, under the loader, under the wrapper');
    await tmux.waitForText(pane.id, /Type your message/, 30_000);

    await type(pane, 'SLOW4 hello from the wrapper');
    await live(id, 'working during a slow reply', (s) => s.status === 'working');
    await live(id, 'idle after the reply', (s) => s.status === 'idle' && s.tokens.output >= 10);

    const target = path.join(h.cwd, 'w.txt');
    await type(pane, `RUNCMD: echo wrapped > ${target}`);
    const waiting = await live(id, 'waiting on the permission prompt', (s) => s.status === 'waiting');
    assert.equal(waiting.waitingFor, `permission: echo wrapped > ${target}`);
    await approve(pane);
    await live(id, 'idle after approval', (s) => s.status === 'idle' && s.tokens.output >= 30);
    assert.ok(fs.existsSync(target), 'the approved command ran');

    // A page through the extension's MCP server: the wrapper's environment names the session.
    await type(pane, 'TOOLCALL: muster/ask_operator {"question":"Which colour, gemini"}');
    await approve(pane); // Gemini asks before an extension's MCP tool runs
    const opened = await events.waitFor('page.opened', (e) => e.type === 'page.opened', 60_000);
    const page = (opened.data['page'] ?? opened.data) as { id: string; sessionId: string; harness: string; attribution: { via: string } };
    assert.deepEqual([page.sessionId, page.harness, page.attribution.via], [id, 'gemini', 'header']);
    const answered = await d.muster(['answer', page.id, 'blue, says the operator']);
    assert.equal(answered.code, 0, answered.stderr);
    await model.waitForRequest((req) => JSON.stringify(req.body).includes('blue, says the operator'), 60_000);
    await live(id, 'idle after the answered page', (s) => s.status === 'idle');

    await type(pane, '/quit');
    const ended = await dormant(id, 'dormant after /quit');
    assert.equal(ended.status, 'ended');
    assert.equal(ended.canEnd, false);
    await new Promise((r) => setTimeout(r, 1500)); // the late SessionEnd copies
    const ends = events.events.filter((e) => e.type === 'hook.event.received' && e.data['sessionId'] === id && e.data['event'] === 'SessionEnd');
    assert.equal(ends.length, 1, 'Gemini fired SessionEnd more than once; Muster recorded it once');
    events.close();
  });

  it('muster resume reopens a dormant session in a pane; its loader ignores SIGTERM, muster end ends the worker', { timeout: SCENARIO_MS }, async () => {
    const dormantOne = (await d.listSessions()).find((s) => s.title === 'demo');
    assert.ok(dormantOne && !dormantOne.live);
    const r = await d.muster(['resume', dormantOne.id]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json['outcome'], 'resumed');
    assert.deepEqual(r.json['argv'], ['gemini', '--resume', dormantOne.id]);
    const paneId = (r.json['pane'] as { id: string }).id;
    const s = await live(dormantOne.id, 'live again in the new pane', (x) => x.pane?.id === paneId && x.status === 'idle').catch(async (e: Error) => {
      throw new Error(`${e.message.slice(0, 2000)}\n--- pane ${paneId} ---\n${await tmux.capture(paneId).catch(() => '(gone)')}`);
    });
    started.push(...s.pids);
    const worker = s.pid!;
    const loader = ppidOf(worker);
    process.kill(loader, 'SIGTERM');
    await new Promise((res) => setTimeout(res, 1500));
    assert.ok(alive(worker) && alive(loader), 'the loader ignored SIGTERM, and its worker runs on');
    assert.equal((await d.listSessions()).find((x) => x.id === s.id)?.live, true);
    const end = await d.muster(['end', s.id]);
    assert.deepEqual(end.json, { ok: true, ended: true, id: s.id });
    await dormant(s.id, 'dormant after muster end');
    assert.equal(alive(worker), false);
    const again = await d.muster(['end', s.id]);
    assert.equal(again.json.error?.code, 'not_running');
  });

  it('a gemini without hooks is live in its cwd with its status unknown; after SIGKILL it is never live again', { timeout: SCENARIO_MS }, async () => {
    const known = new Set((await d.listSessions()).map((s) => s.id));
    // `-e none`: no extension, so no hooks and no --session-id, as with a gemini nobody wired.
    const pane = await tmux.newPane([cli.bin, ...h.argvPrefix, '-e', 'none'], { cwd: h.cwd, env });
    started.push(pane.pid);
    const s = await d.waitFor((x) => !known.has(x.id) && x.live && x.cwd === h.cwd, 60_000, 'the unwired gemini, live by its cwd');
    assert.deepEqual([s.status, s.statusKnown, s.waitingFor, s.canEnd], ['idle', false, null, true]);
    started.push(...s.pids);
    const events = await d.events();
    const t0 = Date.now();
    for (const pid of s.pids) process.kill(pid, 'SIGKILL');
    // Never prompted, it is not listed once dormant: removed rather than changed.
    const gone = (x: { type: string; data: Record<string, unknown> }) => x.data['id'] === s.id && ((x.type === 'session.status.changed' && x.data['live'] === false) || x.type === 'session.removed');
    const e = await events.waitFor('not live on SSE', gone, 5_000);
    assert.ok(e.at - t0 <= 2_000, `not live after ${e.at - t0} ms`);
    events.close();
    await new Promise((r) => setTimeout(r, 1000));
    const after = (await d.listSessions()).filter((x) => x.live);
    assert.deepEqual(after.map((x) => x.id), [], 'nothing left behind is listed live');
    assert.ok(['not_running', 'session_not_found'].includes(String((await d.muster(['end', s.id])).json.error?.code)), 'nothing to end');
  });

  it('a goal on a live session: AfterAgent blocks carry continue, continue, then complete — three turns', { timeout: SCENARIO_MS }, async () => {
    auditor.enqueue(CONTINUE, CONTINUE, DONE);
    const id = randomUUID();
    const set = await d.muster(['goal', 'set', id, 'make the project shippable', '--harness', 'gemini', '--auditor', 'openai/fake-model']);
    assert.equal(set.code, 0, set.stderr);
    const r = await runCli(cli.bin, [...h.argvPrefix, '-o', 'json', '--session-id', id, '--prompt=start the goal'], { cwd: h.cwd, env, timeoutMs: SCENARIO_MS - 30_000 });
    assert.equal(r.code, 0, r.stderr);
    // Each continuation rides an AfterAgent block in this process; one whose hook gave up (a loaded
    // machine can push a hook past its 250 ms bound) is handed off to a headless `gemini --resume`.
    let g = (await d.muster(['goal', 'show', id])).json['goal'] as Goal;
    for (const deadline = Date.now() + 90_000; g.status === 'active' && Date.now() < deadline; await new Promise((res) => setTimeout(res, 500))) {
      g = (await d.muster(['goal', 'show', id])).json['goal'] as Goal;
    }
    assert.equal(g.status, 'complete');
    assert.equal(g.turns, 3);
    assert.equal(auditor.pending(), 0, 'every verdict was used');
    const files = findFiles(path.join(h.configDir, 'tmp'), new RegExp(`-${id.slice(0, 8)}\\.jsonl$`));
    const replies = files.flatMap((f) => readJsonl(f)).filter((x) => x['type'] === 'gemini');
    assert.equal(new Set(replies.map((x) => x['id'])).size, 3, 'three replies');
    // A resume starts a file of its own: one file means every continuation rode an AfterAgent block.
    console.log(`[gemini] live goal: ${files.length === 1 ? 'three turns in one gemini process' : `${files.length - 1} turn(s) handed off to gemini --resume`}`);
  });

  it('muster goal run gemini: continue, continue, complete → exactly three turns, exit 0', { timeout: SCENARIO_MS }, async () => {
    assert.equal(auditor.pending(), 0);
    auditor.enqueue(CONTINUE, CONTINUE, DONE);
    const r = await runCli(process.execPath, [muster, 'goal', 'run', 'gemini', '--cwd', h.cwd, '--auditor', 'openai/fake-model', '--json', 'make the project shippable'], { cwd: h.cwd, env, timeoutMs: SCENARIO_MS - 20_000 });
    const lines = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const last = lines.at(-1) as { ok?: boolean; goal: Goal; outcome: string } | undefined;
    assert.ok(last?.ok, `exit ${r.code}\n${r.stdout}\n${r.stderr}`);
    assert.equal(r.code, 0);
    assert.equal(last.outcome, 'complete');
    assert.equal(lines.filter((l) => l['type'] === 'goal.turn').length, 3);
    assert.equal(last.goal.turns, 3);
    assert.equal(auditor.pending(), 0);
  });

  it('the cli:gemini auditor judges a goal run and leaves no session behind', { timeout: SCENARIO_MS }, async () => {
    audits.push(CONTINUE, DONE);
    const asked = () => model.requests.filter((q) => lastUserText(q).includes('You are an independent auditor')).length;
    const before = asked();
    const r = await runCli(process.execPath, [muster, 'goal', 'run', 'gemini', '--cwd', h.cwd, '--auditor', 'cli:gemini/gemini-fake', '--json', 'judge me with gemini'], { cwd: h.cwd, env, timeoutMs: SCENARIO_MS - 20_000 });
    const last = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { ok?: boolean; goal: Goal; outcome: string };
    assert.ok(last.ok, `exit ${r.code}\n${r.stdout}\n${r.stderr}`);
    assert.equal(last.outcome, 'complete');
    assert.equal(last.goal.turns, 2);
    assert.ok(last.goal.auditTokens > 0);
    assert.equal(audits.length, 0, 'both audits were answered');
    assert.equal(asked() - before, 2, 'each audit was one gemini run');
    // Gemini writes a chat file for every run; the auditor's are removed once it has answered.
    const left = findFiles(path.join(h.configDir, 'tmp'), /\.jsonl$/).filter((f) => fs.readFileSync(f, 'utf8').includes('You are an independent auditor'));
    assert.deepEqual(left, []);
    // The daemon may have listed an auditor's chat file before it was removed: it leaves the list once the
    // removal is seen (a watch event, at worst the next scan).
    const deadline = Date.now() + 15_000;
    let listed = (await d.listSessions()).filter((s) => s.title.includes('independent auditor'));
    while (listed.length > 0 && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 250));
      listed = (await d.listSessions()).filter((s) => s.title.includes('independent auditor'));
    }
    assert.deepEqual(listed.map((s) => s.id), [], 'no auditor run is left in the list');
  });
});
