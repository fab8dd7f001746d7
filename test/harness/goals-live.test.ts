/**
 * Goals on live pi, omp and OpenCode sessions, real-harness tier: the pinned CLI runs in tmux — through
 * `muster <harness>`, and started the ordinary way after `muster hooks install` — against the fake
 * model, while a second fake model server owned by the test answers as the goal's auditor
 * (`openai/fake-model`). The continuation reaches the harness through its own extension or plugin
 * (pi/omp `sendUserMessage`, OpenCode `promptAsync`), so the fake model seeing the continuation prompt is
 * the proof.
 *
 * A session of `opencode serve` (no TUI, so no plugin) is driven by the daemon itself: its turns are read
 * from OpenCode's store and the continuations go through the server's prompt_async.
 *
 * The wrapper runs every scenario (three turns on continue, continue, complete; blocked after three
 * needs-user verdicts and resumed by the page's answer; the turn ceiling; clear); the installed path
 * runs the first, which proves that path drives a session at all without repeating the rest.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, lastUserText, startFakeModel, type FakeModel, type Reply } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, startHarnessDaemon, startOpencodeServe, startTmux, typeUntilSent } from './kit/index.ts';
import type { HarnessDaemon, HarnessEnv, HarnessName, Pane, Tmux } from './kit/index.ts';
import type { Session } from '../../src/core/session.ts';

const SCENARIO_MS = 300_000;
const verdict = (allDone: boolean, remaining: string[], needsUser = false): Reply => ({ text: JSON.stringify({ allDone, remaining, needsUser }) });
const CONTINUE = verdict(false, ['add the tests']);
const DONE = verdict(true, []);
const NEEDS_USER = verdict(false, ['which licence?'], true);
const OBJECTIVE = 'make the project shippable';

interface Goal { id: string; status: string; turns: number; pageId: string | null; maxTurns: number }

/** The harness's own continuation prompts the model received (the driver's text names what remains). */
const continuations = (model: FakeModel, since: number) => model.requests.slice(since).filter((r) => !r.sideCall && lastUserText(r).includes('add the tests'));

describe('goals on live pi, omp and OpenCode sessions', () => {
  let model: FakeModel;
  let auditor: FakeModel;
  let tmux: Tmux;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-goals-live-'));
  const daemons: HarnessDaemon[] = [];
  let n = 0;

  before(async () => {
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    auditor = await startFakeModel();
    tmux = await startTmux(path.join(root, 'tmux'));
  });
  after(async () => {
    await tmux?.kill();
    for (const d of daemons) await d.close();
    await model?.close();
    await auditor?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** A daemon over a fresh harness home and the harness running in tmux, wired by the wrapper or by `hooks install`. */
  async function start(name: HarnessName, via: 'wrapper' | 'installed'): Promise<{ h: HarnessEnv; d: HarnessDaemon; pane: Pane; session: Session }> {
    const cli = await ensureHarnessCli(name);
    const sRoot = path.join(root, `s${++n}-${name}-${via}`);
    const h = harnessEnv(name, { root: sRoot, modelUrl: model.url, binDir: cli.binDir });
    const d = await startHarnessDaemon({ homes: [h], root: sRoot, env: { MUSTER_AUDITOR_BASE_URL: `${auditor.url}/v1`, MUSTER_AUDITOR_API_KEY: 'sk-audit' } });
    daemons.push(d);
    const env = { ...h.env, MUSTER_HOME: String(d.env.MUSTER_HOME) };
    let argv: string[];
    if (via === 'installed') {
      const r = await d.muster(['hooks', 'install', '--harness', name]);
      assert.equal(r.code, 0, r.stderr);
      argv = [name, ...h.argvPrefix];
    } else {
      const museCli = fs.readFileSync(`/proc/${d.pid}/cmdline`, 'utf8').split('\0').find((a) => a.endsWith('cli.js'));
      assert.ok(museCli);
      argv = [process.execPath, museCli, name, ...h.argvPrefix];
    }
    const pane = await tmux.newPane(argv, { cwd: h.cwd, env });
    // OpenCode's TUI drops keys typed before its prompt is drawn.
    if (name === 'opencode') await tmux.waitForText(pane.id, /Ask anything/, 90_000);
    await typeUntilSent(tmux, model, pane.id, 'hello there', 5, 8_000);
    const session = await d.waitFor((s) => s.harness === name && s.live && s.status === 'idle', 60_000, `${name} session idle after its first turn`);
    return { h, d, pane, session };
  }

  async function goal(d: HarnessDaemon, sessionId: string): Promise<Goal> {
    const r = await d.muster(['goal', 'show', sessionId]);
    assert.equal(r.code, 0, r.stderr);
    return r.json['goal'] as Goal;
  }

  async function until(what: string, check: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) assert.fail(`${what}: not within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async function setGoal(d: HarnessDaemon, sessionId: string, extra: string[] = []): Promise<Goal> {
    const r = await d.muster(['goal', 'set', sessionId, OBJECTIVE, '--auditor', 'openai/fake-model', ...extra]);
    assert.equal(r.code, 0, `goal set: ${r.stderr}`);
    return r.json['goal'] as Goal;
  }

  function suite(name: HarnessName) {
    it(`${name} through the wrapper: three turns on continue, continue, complete; blocked and resumed by the answer; the ceiling; clear`, { timeout: SCENARIO_MS }, async () => {
      const { d, pane, session } = await start(name, 'wrapper');
      const id = session.id;

      // 1. continue, continue, complete: exactly three turns, the continuations sent by the harness's own extension/plugin.
      auditor.enqueue(CONTINUE, CONTINUE, DONE);
      await setGoal(d, id);
      let mark = model.requests.length;
      await typeUntilSent(tmux, model, pane.id, 'start on the goal');
      await until('goal complete', async () => (await goal(d, id)).status === 'complete');
      assert.equal((await goal(d, id)).turns, 3);
      // On failure: what each request since the goal was set said last, to tell a retyped prompt from a lost continuation.
      const said = () => JSON.stringify(model.requests.slice(mark).map((r) => `${r.sideCall ? 'side' : 'turn'}: ${lastUserText(r).slice(0, 60)}`));
      assert.equal(continuations(model, mark).length, 2, `two continuation prompts reached the model; requests: ${said()}`);
      assert.equal(auditor.pending(), 0);

      // 2. three needs-user verdicts: blocked with a page; the operator's answer is the next prompt.
      auditor.enqueue(NEEDS_USER, NEEDS_USER, NEEDS_USER, DONE);
      await setGoal(d, id);
      await typeUntilSent(tmux, model, pane.id, 'carry on');
      await until('goal blocked', async () => (await goal(d, id)).status === 'blocked');
      const blocked = await goal(d, id);
      assert.equal(blocked.turns, 3);
      assert.ok(blocked.pageId, 'a page was raised');
      mark = model.requests.length;
      const answered = await d.muster(['answer', blocked.pageId, 'use the MIT licence']);
      assert.equal(answered.code, 0, answered.stderr);
      await until('the answer reached the model', async () => model.requests.slice(mark).some((r) => JSON.stringify(r.body).includes('use the MIT licence')));
      await until('goal complete after the answer', async () => (await goal(d, id)).status === 'complete');

      // 3. --max-turns 2 is respected to the turn.
      auditor.enqueue(CONTINUE, CONTINUE);
      await setGoal(d, id, ['--max-turns', '2']);
      await typeUntilSent(tmux, model, pane.id, 'go again');
      await until('goal stopped at its ceiling', async () => (await goal(d, id)).status === 'max_turns');
      assert.equal((await goal(d, id)).turns, 2);
      assert.equal(auditor.pending(), 0);

      // 4. clear stops it at once: a continue the auditor gives after the clear sends nothing.
      auditor.enqueue({ ...CONTINUE, delayMs: 3000 });
      await setGoal(d, id);
      await typeUntilSent(tmux, model, pane.id, 'one more');
      await until('the audit started', async () => auditor.pending() === 0);
      mark = model.requests.length;
      const cleared = await d.muster(['goal', 'clear', id]);
      assert.equal(cleared.code, 0, cleared.stderr);
      await new Promise((r) => setTimeout(r, 6000));
      assert.equal(continuations(model, mark).length, 0, 'no continuation after clear');
      assert.notEqual((await d.muster(['goal', 'show', id])).code, 0, 'the goal is gone');
    });

    it(`${name} started the ordinary way after hooks install: three turns on continue, continue, complete`, { timeout: SCENARIO_MS }, async () => {
      const { d, pane, session } = await start(name, 'installed');
      auditor.enqueue(CONTINUE, CONTINUE, DONE);
      await setGoal(d, session.id);
      const mark = model.requests.length;
      await typeUntilSent(tmux, model, pane.id, 'start on the goal');
      await until('goal complete', async () => (await goal(d, session.id)).status === 'complete');
      assert.equal((await goal(d, session.id)).turns, 3);
      assert.equal(continuations(model, mark).length, 2);
    });
  }

  suite('pi');
  suite('omp');
  suite('opencode');

  it('opencode serve (a server, no TUI, no plugin): the turns are read from its store, the continuations go through prompt_async', { timeout: SCENARIO_MS }, async () => {
    const cli = await ensureHarnessCli('opencode');
    const sRoot = path.join(root, `s${++n}-opencode-serve`);
    const h = harnessEnv('opencode', { root: sRoot, modelUrl: model.url, binDir: cli.binDir });
    const d = await startHarnessDaemon({ homes: [h], root: sRoot, env: { MUSTER_AUDITOR_BASE_URL: `${auditor.url}/v1`, MUSTER_AUDITOR_API_KEY: 'sk-audit' } });
    daemons.push(d);
    const server = await startOpencodeServe(cli.bin, { cwd: h.cwd, env: h.env });
    const call = server.call;
    try {
      const id = String((await call('/session', {}))?.['id']);
      await call(`/session/${id}/prompt_async`, { parts: [{ type: 'text', text: 'hello there' }] });
      // Idle on a server that hosts many sessions, it is listed dormant — and promptable.
      const s = await d.waitFor((x) => x.id === id && x.promptable === true && x.status !== 'working', 60_000, 'the served session, promptable');
      auditor.enqueue(CONTINUE, CONTINUE, DONE);
      await setGoal(d, s.id);
      const mark = model.requests.length;
      await call(`/session/${id}/prompt_async`, { parts: [{ type: 'text', text: 'start on the goal' }] });
      await until('goal complete', async () => (await goal(d, id)).status === 'complete');
      assert.equal((await goal(d, id)).turns, 3);
      assert.equal(continuations(model, mark).length, 2);
    } finally {
      server.stop();
    }
  });
});
