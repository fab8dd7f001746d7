/**
 * Goals, real-harness tier: `muster goal run <harness>` (the built CLI and daemon) drives the pinned
 * harness against the fake model, judged by a second fake model server acting as the auditor
 * (`openai/fake-model` through MUSTER_AUDITOR_BASE_URL). Both servers are owned by the test.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastUserText, startFakeModel, systemText, type FakeModel, type Reply } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, runCli, type HarnessCli, type HarnessName } from './kit/index.ts';

const BIN = fileURLToPath(new URL('../../bin/muster.js', import.meta.url));
const SCENARIO_MS = 240_000;
const verdict = (allDone: boolean, remaining: string[], needsUser = false): Reply => ({ text: JSON.stringify({ allDone, remaining, needsUser }) });
const CONTINUE = verdict(false, ['add the tests']);
const DONE = verdict(true, []);
const NEEDS_USER = verdict(false, ['which licence?'], true);

interface Goal { id: string; status: string; turns: number; tokensUsed: number; auditTokens: number; pageId: string | null }

function suite(name: HarnessName, full: boolean) {
  describe(`muster goal run ${name}`, () => {
    let model: FakeModel;
    let auditor: FakeModel;
    let cli: HarnessCli;
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `muster-goals-${name}-`));
    const museHome = path.join(root, 'muster');
    let n = 0;

    before(async () => {
      cli = await ensureHarnessCli(name);
      model = await startFakeModel();
      auditor = await startFakeModel();
    });
    after(async () => {
      const h = harnessEnv(name, { root: path.join(root, 'down'), modelUrl: model.url, binDir: cli.binDir });
      await runCli(process.execPath, [BIN, 'down'], { cwd: h.cwd, env: { ...h.env, MUSTER_HOME: museHome }, timeoutMs: 20_000 });
      await model?.close();
      await auditor?.close();
      fs.rmSync(root, { recursive: true, force: true });
    });

    async function goalRun(verdicts: Reply[], args: string[] = [], auditorSpec: string | null = 'openai/fake-model') {
      auditor.enqueue(...verdicts);
      const h = harnessEnv(name, { root: path.join(root, `s${++n}`), modelUrl: model.url, binDir: cli.binDir });
      const env = { ...h.env, MUSTER_HOME: museHome, MUSTER_PORT: '0', MUSTER_AUDITOR_BASE_URL: `${auditor.url}/v1`, MUSTER_AUDITOR_API_KEY: 'sk-audit' };
      const spec = auditorSpec === null ? [] : ['--auditor', auditorSpec];
      const r = await runCli(process.execPath, [BIN, 'goal', 'run', name, '--cwd', h.cwd, ...spec, '--json', ...args, 'make the project shippable'], { cwd: h.cwd, env, timeoutMs: SCENARIO_MS - 20_000 });
      const lines = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      const last = lines.at(-1) as { ok?: boolean; goal: Goal; outcome: string; turns: number } | undefined;
      assert.ok(last?.ok, `no envelope; exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      const pages = async () => {
        const p = await runCli(process.execPath, [BIN, 'pages'], { cwd: h.cwd, env, timeoutMs: 20_000 });
        return (JSON.parse(p.stdout) as { pages: { id: string; question: string }[] }).pages;
      };
      return { code: r.code, turns: lines.filter((l) => l.type === 'goal.turn'), goal: last.goal, outcome: last.outcome, pages, audits: auditor.pending() };
    }

    it('continue, continue, complete → exactly three turns, exit 0', { timeout: SCENARIO_MS }, async () => {
      const r = await goalRun([CONTINUE, CONTINUE, DONE]);
      assert.equal(r.outcome, 'complete');
      assert.equal(r.code, 0);
      assert.equal(r.turns.length, 3);
      assert.equal(r.goal.turns, 3);
      assert.equal(r.audits, 0, 'every queued verdict was used');
      assert.ok(r.goal.auditTokens > 0 && r.goal.tokensUsed > r.goal.auditTokens, 'turn and auditor tokens are both counted');
    });

    if (name !== 'claude' && name !== 'codex') {
      it('no auditor configured: the harness audits itself (its print mode, against the same fake model), exit 0 on complete', { timeout: SCENARIO_MS }, async () => {
        // The harness's own auditor run asks the fake model with the auditor's instructions: it answers complete.
        const remove = model.onRequest((req) => (`${systemText(req)}\n${lastUserText(req)}`.includes('You are an independent auditor') ? DONE : undefined));
        const auditorRequests = auditor.requests.length;
        try {
          const r = await goalRun([], [], null);
          assert.equal(r.outcome, 'complete');
          assert.equal(r.code, 0);
          assert.equal(r.goal.turns, 1);
          assert.equal(auditor.requests.length, auditorRequests, 'the HTTP auditor was not asked');
        } finally {
          remove();
        }
      });
    }

    if (!full) return;

    it('three needs-user verdicts → blocked, exit 3, a page raised naming the goal', { timeout: SCENARIO_MS }, async () => {
      const r = await goalRun([NEEDS_USER, NEEDS_USER, NEEDS_USER]);
      assert.equal(r.outcome, 'blocked');
      assert.equal(r.code, 3);
      assert.equal(r.goal.turns, 3);
      assert.ok(r.goal.pageId);
      const page = (await r.pages()).find((p) => p.id === r.goal.pageId);
      assert.match(page?.question ?? '', /make the project shippable[\s\S]*which licence/);
    });

    it('two auditor errors in a row → audit_failed, exit 4', { timeout: SCENARIO_MS }, async () => {
      const err: Reply = { error: { status: 500, message: 'auditor down' } };
      const r = await goalRun([err, err]);
      assert.equal(r.outcome, 'audit_failed');
      assert.equal(r.code, 4);
      assert.equal(r.goal.turns, 2);
    });

    it('--max-turns is respected to the turn (exit 6), --budget to the token (exit 5)', { timeout: SCENARIO_MS }, async () => {
      const m = await goalRun([CONTINUE, CONTINUE], ['--max-turns', '2']);
      assert.equal(m.outcome, 'max_turns');
      assert.equal(m.code, 6);
      assert.equal(m.goal.turns, 2);
      assert.equal(m.audits, 0, 'the last turn is audited too (a complete verdict would still win)');
      const perTurn = m.goal.tokensUsed / 2;
      assert.ok(Number.isInteger(perTurn), 'the instant fake model spends the same per turn');
      const b = await goalRun([CONTINUE, CONTINUE], ['--budget', String(2 * perTurn), '--max-turns', '10']);
      assert.equal(b.outcome, 'budget_exhausted');
      assert.equal(b.code, 5);
      assert.equal(b.goal.turns, 2);
      assert.equal(b.goal.tokensUsed, 2 * perTurn);
    });
  });
}

suite('claude', true);
suite('codex', false);
suite('opencode', false);
suite('pi', false);
suite('omp', false);
