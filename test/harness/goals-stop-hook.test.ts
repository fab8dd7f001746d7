/**
 * Goals through Claude's Stop hook, real-harness tier: the pinned `claude -p` with Muster's hooks
 * injected through `--settings` (as the wrapper does), against the fake model; the built daemon judges
 * each finished turn with a second fake model as the auditor and answers the Stop hook with a block
 * carrying the next instruction, so one Claude process runs the goal's turns.
 *
 * The daemon is started by the built CLI with this test's env (as `muster goal run` does) rather than
 * kit/daemon.ts: that kit passes the daemon only the harness homes, and the auditor's base URL and the
 * agent's ANTHROPIC_BASE_URL (needed for the headless `claude --resume` handoff) must reach it too.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeModel, type FakeModel, type Reply } from '../fakes/fake-model/index.ts';
import { claudeTranscriptPath, ensureHarnessCli, harnessEnv, readJsonl, runCli, type HarnessCli } from './kit/index.ts';
import { claudeHooksConfig } from '../../src/harnesses/claude/launch.ts';

const BIN = fileURLToPath(new URL('../../bin/muster.js', import.meta.url));
const SCENARIO_MS = 180_000;
const verdict = (allDone: boolean, remaining: string[], needsUser = false): Reply => ({ text: JSON.stringify({ allDone, remaining, needsUser }) });
const CONTINUE = verdict(false, ['add the tests']);
const DONE = verdict(true, []);
const NEEDS_USER = verdict(false, ['which licence?'], true);

interface Goal { id: string; status: string; turns: number; tokensUsed: number; auditTokens: number; pageId: string | null; reason: string | null }

describe('goals driven by the Claude Stop hook (claude -p, hooks via --settings)', () => {
  let model: FakeModel;
  let auditor: FakeModel;
  let cli: HarnessCli;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-goals-stop-'));
  const musterHome = path.join(root, 'muster');
  let n = 0;
  let env: NodeJS.ProcessEnv;
  let cwd: string;

  before(async () => {
    cli = await ensureHarnessCli('claude');
    model = await startFakeModel();
    auditor = await startFakeModel();
    const h = harnessEnv('claude', { root: path.join(root, 'h'), modelUrl: model.url, binDir: cli.binDir });
    cwd = h.cwd;
    // One env for the daemon (started on demand by the CLI), the hooks and claude itself.
    env = { ...h.env, MUSTER_HOME: musterHome, MUSTER_PORT: '0', MUSTER_AUDITOR_BASE_URL: `${auditor.url}/v1`, MUSTER_AUDITOR_API_KEY: 'sk-audit', CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' };
    const up = await muster(['up']);
    assert.equal(up.code, 0, up.stderr);
  });
  after(async () => {
    if (env) await muster(['down']);
    await model?.close();
    await auditor?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  function muster(args: string[]) {
    return runCli(process.execPath, [BIN, ...args], { cwd, env, timeoutMs: 60_000 });
  }
  async function goalOf(sessionId: string): Promise<Goal> {
    const r = await muster(['goal', 'show', sessionId]);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { goal: Goal }).goal;
  }
  async function waitSettled(sessionId: string, timeoutMs: number): Promise<Goal> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const g = await goalOf(sessionId);
      if (g.status !== 'active' || Date.now() > deadline) return g;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  /** Assistant records that ended a turn (end_turn), across every process that wrote the session. */
  function finishedTurns(sessionId: string): number {
    const file = claudeTranscriptPath(env.CLAUDE_CONFIG_DIR as string, cwd, sessionId);
    const recs = readJsonl(file) as { type?: string; message?: { stop_reason?: string } }[];
    return recs.filter((r) => r.type === 'assistant' && r.message?.stop_reason === 'end_turn').length;
  }

  /** Sets a goal on a fresh session id, then runs one `claude -p` with the hooks injected. */
  async function drive(verdicts: Reply[], goalArgs: string[] = [], extraEnv: NodeJS.ProcessEnv = {}) {
    auditor.enqueue(...verdicts);
    const sessionId = randomUUID();
    const set = await muster(['goal', 'set', sessionId, 'make the project shippable', '--harness', 'claude', '--auditor', 'openai/fake-model', ...goalArgs]);
    assert.equal(set.code, 0, set.stderr);
    const settings = JSON.stringify(claudeHooksConfig((e) => `${process.execPath} ${BIN} hook claude ${e}`));
    const started = Date.now();
    const r = await runCli(cli.bin, ['-p', `start ${++n}`, '--session-id', sessionId, '--settings', settings, '--output-format', 'json'], { cwd, env: { ...env, ...extraEnv }, timeoutMs: SCENARIO_MS - 30_000 });
    const result = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { num_turns?: number };
    return { sessionId, result, code: r.code, stderr: r.stderr, ms: Date.now() - started };
  }

  it('continue, continue, complete → exactly three turns in one claude process', { timeout: SCENARIO_MS }, async () => {
    const r = await drive([CONTINUE, CONTINUE, DONE], [], { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '8' });
    assert.equal(r.code, 0, r.stderr);
    const g = await waitSettled(r.sessionId, 10_000);
    assert.equal(g.status, 'complete');
    assert.equal(g.turns, 3);
    assert.equal(r.result.num_turns, 3, 'two blocks, then Claude stopped');
    assert.equal(finishedTurns(r.sessionId), 3);
    assert.equal(auditor.pending(), 0, 'every queued verdict was used');
    assert.ok(g.auditTokens > 0);
  });

  it('three needs-user verdicts → blocked, a page raised naming the goal', { timeout: SCENARIO_MS }, async () => {
    const r = await drive([NEEDS_USER, NEEDS_USER, NEEDS_USER], [], { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '8' });
    const g = await waitSettled(r.sessionId, 10_000);
    assert.equal(g.status, 'blocked');
    assert.equal(g.turns, 3);
    assert.ok(g.pageId, 'a page was raised');
    const pages = JSON.parse((await muster(['pages'])).stdout) as { pages: { id: string; question: string }[] };
    assert.match(pages.pages.find((p) => p.id === g.pageId)?.question ?? '', /make the project shippable[\s\S]*which licence/);
  });

  it('two auditor errors in a row → audit_failed after two turns', { timeout: SCENARIO_MS }, async () => {
    const err: Reply = { error: { status: 500, message: 'auditor down' } };
    const r = await drive([err, err], [], { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '8' });
    const g = await waitSettled(r.sessionId, 10_000);
    assert.equal(g.status, 'audit_failed');
    assert.equal(g.turns, 2);
    assert.equal(finishedTurns(r.sessionId), 2);
  });

  it('--max-turns to the turn, --budget to the token', { timeout: SCENARIO_MS }, async () => {
    const m = await drive([CONTINUE, CONTINUE], ['--max-turns', '2'], { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '8' });
    const mg = await waitSettled(m.sessionId, 10_000);
    assert.equal(mg.status, 'max_turns');
    assert.equal(mg.turns, 2);
    assert.equal(finishedTurns(m.sessionId), 2);
    // Audits cost the same each time (the fake auditor's usage); a hook-reported turn adds the
    // session's token delta as the hub knows it (0 for the session's first turn). A budget of two
    // audits is therefore spent at the second turn, whatever the session's own tokens.
    const budget = mg.auditTokens;
    const b = await drive([CONTINUE, CONTINUE], ['--budget', String(budget), '--max-turns', '10'], { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '8' });
    const bg = await waitSettled(b.sessionId, 10_000);
    assert.equal(bg.status, 'budget_exhausted');
    assert.equal(bg.turns, 2);
    assert.ok(bg.tokensUsed >= budget && bg.auditTokens === budget, JSON.stringify(bg));
    assert.equal(finishedTurns(b.sessionId), 2, 'no turn ran after the budget settled the goal');
    assert.equal(auditor.pending(), 0);
  });

  it("past Claude's block cap the goal continues through claude --resume -p, not cut", { timeout: SCENARIO_MS }, async () => {
    // Cap 2 (set for the daemon and claude): turns 1–3 in the first process, turn 4 by the handoff.
    const r = await drive([CONTINUE, CONTINUE, CONTINUE, DONE]);
    assert.equal(r.result.num_turns, 3, 'Claude honoured two blocks');
    const g = await waitSettled(r.sessionId, 60_000);
    assert.equal(g.status, 'complete', JSON.stringify(g));
    assert.equal(g.turns, 4);
    assert.equal(finishedTurns(r.sessionId), 4, 'the fourth turn ran in the same session, resumed headless');
  });

  it('a daemon restart while the Stop hook waits: the next finished turn is driven with the limits intact', { timeout: SCENARIO_MS }, async () => {
    // Turn 1's audit hangs long enough for the daemon to be stopped under the waiting hook.
    auditor.enqueue({ ...CONTINUE, delayMs: 8000 });
    const sessionId = randomUUID();
    assert.equal((await muster(['goal', 'set', sessionId, 'make the project shippable', '--harness', 'claude', '--auditor', 'openai/fake-model', '--max-turns', '2', '--budget', '999999'])).code, 0);
    const settings = JSON.stringify(claudeHooksConfig((e) => `${process.execPath} ${BIN} hook claude ${e}`));
    const first = runCli(cli.bin, ['-p', 'start', '--session-id', sessionId, '--settings', settings, '--output-format', 'json'], { cwd, env, timeoutMs: 60_000 });
    const deadline = Date.now() + 30_000;
    while ((await goalOf(sessionId)).turns < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal((await muster(['down'])).code, 0);
    const r1 = await first;
    assert.equal(r1.code, 0, `claude still ends cleanly when the daemon goes away under its hook: ${r1.stderr}`);
    assert.equal(finishedTurns(sessionId), 1);
    const up = await muster(['up']);
    assert.equal(up.code, 0, `muster up after the restart: ${JSON.stringify(up)}`);
    const before = await goalOf(sessionId);
    assert.deepEqual([before.status, before.turns], ['active', 1]);
    // The operator's next prompt finishes turn 2; the new daemon counts it against the stored ceiling.
    auditor.enqueue(CONTINUE);
    const r2 = await runCli(cli.bin, ['-p', 'go on', '--resume', sessionId, '--settings', settings, '--output-format', 'json'], { cwd, env, timeoutMs: 60_000 });
    assert.equal(r2.code, 0, r2.stderr);
    const g = await waitSettled(sessionId, 10_000);
    assert.equal(g.status, 'max_turns', JSON.stringify(g));
    assert.equal(g.turns, 2);
    assert.equal(finishedTurns(sessionId), 2, 'the ceiling stopped the loop: no third turn');
  });
});
