/**
 * Goals end to end through the built daemon: the CLI control surface (set/show/ls/pause/resume/clear,
 * empty objective refused), SSE goal events, and a daemon restart in the middle of an active goal that
 * resumes driving at the next finished turn with its limits intact. The auditor is a fake model server.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, type FakeModel } from '../fakes/fake-model/index.ts';
import { envFor, runCli, splitBoardUrl, startServe, tempHome, waitExit } from './kit.ts';

const SID = '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const CONTINUE = { text: JSON.stringify({ allDone: false, remaining: ['write docs'], needsUser: false }) };

describe('goals e2e', () => {
  const home = tempHome('muster-e2e-goals-');
  let auditor: FakeModel;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    auditor = await startFakeModel();
    env = envFor(home.home, { MUSTER_AUDITOR_BASE_URL: `${auditor.url}/v1`, MUSTER_AUDITOR_API_KEY: 'k' });
  });
  after(async () => {
    await auditor.close();
    home.cleanup();
  });

  async function serve() {
    const s = await startServe(env);
    const { base, token } = splitBoardUrl(s.envelope.boardUrl);
    const turn = async (text: string, tokens: number) => {
      const r = await fetch(`${base}/api/goals/turn`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: SID, harness: 'claude', lastAssistantText: text, tokens }) });
      return (await r.json()) as { decision: string; limits?: { maxTurns: number; tokenBudget: number | null; turns: number } };
    };
    return { ...s, base, token, turn };
  }
  const cli = async (...args: string[]) => {
    const r = await runCli(args, env);
    return { code: r.code, out: r.stdout ? (JSON.parse(r.stdout) as Record<string, any>) : null, err: r.stderr }; // eslint-disable-line @typescript-eslint/no-explicit-any -- loose envelope reads
  };

  it('control surface, SSE events, and a restart mid-goal keeps driving with its limits', { timeout: 90_000 }, async () => {
    const events: string[] = [];
    /** Collects goal.* event names from the daemon's SSE stream; returns its stopper. */
    const watch = async (base: string, token: string) => {
      const sse = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` } });
      const reader = sse.body!.getReader();
      void (async () => {
        const dec = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done) break;
          for (const m of dec.decode(value).matchAll(/event: (goal\.[a-z]+)/g)) events.push(m[1]!);
        }
      })();
      return () => reader.cancel().catch(() => {});
    };
    let d = await serve();
    let stopWatch = await watch(d.base, d.token);

    const empty = await cli('goal', 'set', SID, ' ', '--harness', 'claude');
    assert.notEqual(empty.code, 0);
    assert.match(empty.err, /invalid_argument/);
    const set = await cli('goal', 'set', SID, 'ship', 'v2', '--harness', 'claude', '--max-turns', '3', '--budget', '100000', '--auditor', 'openai/judge');
    assert.equal(set.code, 0, set.err);
    assert.equal(set.out!.goal.objective, 'ship v2');
    assert.equal((await cli('goal', 'ls')).out!.goals.length, 1);

    auditor.enqueue(CONTINUE, CONTINUE, CONTINUE);
    assert.equal((await d.turn('did part one', 50)).decision, 'continue');
    assert.equal((auditor.requests.at(-1)!.body as { model: string }).model, 'judge', 'the configured auditor model is used');

    // Restart in the middle of the active goal: the next finished turn is driven with the same limits.
    d.child.kill('SIGTERM');
    await waitExit(d.child, 15_000);
    await stopWatch();
    d = await serve();
    stopWatch = await watch(d.base, d.token);
    const next = await d.turn('did part two', 50);
    assert.equal(next.decision, 'continue');
    assert.deepEqual({ maxTurns: next.limits!.maxTurns, tokenBudget: next.limits!.tokenBudget, turns: next.limits!.turns }, { maxTurns: 3, tokenBudget: 100000, turns: 2 });
    assert.equal((await d.turn('did part three', 50)).decision, 'stop');
    const shown = await cli('goal', 'show', SID);
    assert.equal(shown.out!.goal.status, 'max_turns');
    assert.equal(shown.out!.goal.turns, 3);

    assert.equal((await cli('goal', 'resume', SID)).out!.goal.status, 'active');
    assert.equal((await cli('goal', 'pause', SID)).out!.goal.status, 'paused');
    assert.equal((await cli('goal', 'clear', SID)).out!.cleared, shown.out!.goal.id);
    assert.equal((await cli('goal', 'clear', SID)).code, 0, 'clear always works');
    assert.equal((await cli('goal', 'show', SID)).code, 1);
    await stopWatch();
    d.child.kill('SIGTERM');
    await waitExit(d.child, 15_000);
    for (const t of ['goal.updated', 'goal.evaluating', 'goal.audited', 'goal.settled']) assert.ok(events.includes(t), `SSE saw ${t}: ${events.join(',')}`);
  });
});
