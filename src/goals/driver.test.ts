// The goal driver after every finished turn, rule by rule: complete, three strikes block, two failed
// audits stop, settings read fresh each time, one audit at a time, the goal's own limits on every continuation.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryGoalsRepository } from './memory-repo.test-support.ts';
import { CONTINUE, DONE, NEEDS_USER, SESSION, createRig, type Rig } from './driver-fakes.test-support.ts';
import type { TurnFinished } from './types.ts';

const turn = (over: Partial<TurnFinished> = {}): TurnFinished => ({ sessionId: SESSION, harness: 'claude', lastAssistantText: 'I did some work.', tokens: 100, ...over });
const setGoal = (r: Rig, over: Record<string, unknown> = {}) => r.goals.set({ sessionId: SESSION, harness: 'claude', objective: 'ship the feature', ...over });
const status = async (r: Rig) => (await r.goals.get(SESSION)).status;
const types = (r: Rig) => r.events.map((e) => e.type);

describe('goal driver: when it runs at all', () => {
  it('does nothing for a turn that did not end normally', async () => {
    const r = createRig([DONE]);
    await setGoal(r);
    const d = await r.goals.onTurnFinished(turn({ outcome: 'interrupted' }));
    assert.equal(d.decision, 'stop');
    assert.equal(r.auditor.calls.length, 0);
    assert.equal((await r.goals.get(SESSION)).turns, 0);
  });

  it('does nothing for a session without a goal, or with a goal that is not active', async () => {
    const r = createRig([DONE]);
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'stop');
    await setGoal(r);
    await r.goals.pause(SESSION);
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'stop');
    assert.equal(r.auditor.calls.length, 0);
  });

  it('does nothing without a way to send the next turn; uses the continuation port when there is one', async () => {
    const none = createRig([CONTINUE]);
    await setGoal(none);
    const d = await none.goals.onTurnFinished(turn({ delivers: false }));
    assert.equal(d.decision, 'stop');
    assert.equal(none.auditor.calls.length, 0);

    const port = createRig([CONTINUE], { continuation: true });
    await setGoal(port);
    const d2 = await port.goals.onTurnFinished(turn({ delivers: false }));
    assert.equal(d2.decision, 'continue');
    assert.equal(port.sent.length, 1);
    assert.match(port.sent[0]!.prompt, /write the tests/);
  });

  it('an empty report is not audited and changes nothing', async () => {
    const r = createRig([DONE]);
    await setGoal(r);
    for (const text of [null, '', '   \n']) {
      assert.equal((await r.goals.onTurnFinished(turn({ lastAssistantText: text }))).decision, 'stop');
    }
    assert.equal(r.auditor.calls.length, 0);
    assert.equal((await r.goals.get(SESSION)).turns, 0);
    assert.equal(await status(r), 'active');
  });

  it('judges exactly the final assistant text it is given', async () => {
    const r = createRig([CONTINUE]);
    await setGoal(r);
    await r.goals.onTurnFinished(turn({ lastAssistantText: 'All endpoints done; tests pass.' }));
    assert.equal(r.auditor.calls[0]!.report, 'All endpoints done; tests pass.');
    assert.equal(r.auditor.calls[0]!.objective, 'ship the feature');
  });
});

describe('goal driver: settings read fresh at every decision', () => {
  it('auditor off: the goal exists and counts, but nothing advances it', async () => {
    const r = createRig([DONE]);
    await setGoal(r);
    r.settings.auditEnabled = false;
    const d = await r.goals.onTurnFinished(turn());
    assert.equal(d.decision, 'stop');
    assert.equal(r.auditor.calls.length, 0);
    assert.equal(await status(r), 'active');
    // Switched on mid-goal: the very next decision audits (no cached settings).
    r.settings.auditEnabled = true;
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'stop');
    assert.equal(await status(r), 'complete');
  });

  it('a configured auditor model is used instead of the session\'s; a per-goal auditor wins over both', async () => {
    const r = createRig([CONTINUE, CONTINUE, CONTINUE]);
    await setGoal(r);
    await r.goals.onTurnFinished(turn());
    r.settings.auditModel = 'openai/llama3';
    await r.goals.onTurnFinished(turn());
    await setGoal(r, { auditor: 'anthropic/judge' });
    await r.goals.onTurnFinished(turn());
    assert.deepEqual(r.auditor.specs, ['', 'openai/llama3', 'anthropic/judge']);
  });

  it('unreadable settings never throw: the defaults apply (auditor on)', async () => {
    const r = createRig([DONE]);
    await setGoal(r);
    r.settings.throws = true;
    await r.goals.onTurnFinished(turn());
    assert.equal(await status(r), 'complete');
  });
});

describe('goal driver: verdicts', () => {
  it('all done with nothing remaining → complete, with one notification', async () => {
    const r = createRig([DONE]);
    await setGoal(r);
    const d = await r.goals.onTurnFinished(turn());
    assert.equal(d.decision, 'stop');
    assert.equal(await status(r), 'complete');
    assert.equal(r.pages.notified.length, 1);
    assert.equal(types(r).filter((t) => t === 'goal.settled').length, 1);
  });

  it('all done but something remaining is not complete: continue', async () => {
    const r = createRig([{ allDone: true, remaining: ['update the changelog'], needsUser: false }]);
    await setGoal(r);
    const d = await r.goals.onTurnFinished(turn());
    assert.equal(d.decision, 'continue');
    assert.equal(await status(r), 'active');
  });

  it('one needs-user verdict continues; three in a row block and page the operator', async () => {
    const r = createRig([NEEDS_USER, NEEDS_USER, NEEDS_USER]);
    await setGoal(r);
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'continue');
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'continue');
    assert.equal(r.pages.asked.length, 0);
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'stop');
    const g = await r.goals.get(SESSION);
    assert.equal(g.status, 'blocked');
    assert.equal(r.pages.asked.length, 1);
    assert.match(r.pages.asked[0]!, /ship the feature/);
    assert.match(r.pages.asked[0]!, /which database/);
    assert.equal(g.pageId, `pag_${'0'.repeat(26)}`);
    assert.equal(r.pages.notified.length, 0, 'blocked pages, it does not also notify');
  });

  it('a normal verdict between snags resets the strikes', async () => {
    const r = createRig([NEEDS_USER, NEEDS_USER, CONTINUE, NEEDS_USER, NEEDS_USER]);
    await setGoal(r);
    for (let i = 0; i < 5; i++) assert.equal((await r.goals.onTurnFinished(turn())).decision, 'continue');
    assert.equal((await r.goals.get(SESSION)).strikes, 2);
  });

  it('one failed audit continues unchecked; two in a row stop with audit_failed', async () => {
    const r = createRig([{ error: 'HTTP 500' }, { error: 'timeout' }]);
    await setGoal(r);
    const first = await r.goals.onTurnFinished(turn());
    assert.equal(first.decision, 'continue');
    assert.match(first.decision === 'continue' ? first.prompt : '', /could not be audited/);
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'stop');
    assert.equal(await status(r), 'audit_failed');
  });

  it('a successful audit between failures resets the count', async () => {
    const r = createRig([{ error: 'x' }, CONTINUE, { error: 'y' }]);
    await setGoal(r);
    for (let i = 0; i < 3; i++) assert.equal((await r.goals.onTurnFinished(turn())).decision, 'continue');
    assert.equal(await status(r), 'active');
  });

  it('an auditor that throws anyway is a failed audit, and evaluating still goes false', async () => {
    const r = createRig([{ throws: 'boom' }, { throws: 'boom' }]);
    await setGoal(r);
    await r.goals.onTurnFinished(turn());
    await r.goals.onTurnFinished(turn());
    assert.equal(await status(r), 'audit_failed');
    const ev = r.events.filter((e) => e.type === 'goal.evaluating').map((e) => (e.data as { evaluating: boolean }).evaluating);
    assert.deepEqual(ev, [true, false, true, false]);
  });

  it('emits evaluating true before the audit and false after, then audited', async () => {
    const r = createRig([CONTINUE]);
    await setGoal(r);
    await r.goals.onTurnFinished(turn());
    const seq = types(r).filter((t) => t !== 'goal.updated');
    assert.deepEqual(seq, ['goal.evaluating', 'goal.evaluating', 'goal.audited']);
  });
});

describe('goal driver: standing stops, resume, concurrency', () => {
  it('a standing stop stays down until resume; resume is a fresh start', async () => {
    const r = createRig([NEEDS_USER, NEEDS_USER, NEEDS_USER, NEEDS_USER, CONTINUE]);
    await setGoal(r);
    for (let i = 0; i < 3; i++) await r.goals.onTurnFinished(turn());
    assert.equal(await status(r), 'blocked');
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'stop');
    assert.equal(r.auditor.calls.length, 3, 'no audit while blocked');
    const g = await r.goals.resume(SESSION);
    assert.equal(g.status, 'active');
    assert.equal(g.strikes, 0);
    assert.equal(g.auditFailures, 0);
    // One needs-user after resume is a first strike again, not a fourth.
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'continue');
  });

  it('an operator pause during the audit wins over the verdict', async () => {
    const r = createRig([{ hang: true }]);
    await setGoal(r);
    const pending = r.goals.onTurnFinished(turn());
    await new Promise((res) => setTimeout(res, 10));
    await r.goals.pause(SESSION);
    assert.equal((await pending).decision, 'stop');
    assert.equal(await status(r), 'paused');
  });

  it('one audit at a time per session', async () => {
    const r = createRig([{ hang: true }, CONTINUE]);
    await setGoal(r);
    const [a, b] = await Promise.all([r.goals.onTurnFinished(turn()), r.goals.onTurnFinished(turn())]);
    assert.equal(r.auditor.calls.length, 1);
    assert.deepEqual([a.decision, b.decision].sort(), ['continue', 'stop']);
  });

  it('the answer to a blocked goal\'s page resumes it with the answer as the next prompt', async () => {
    const r = createRig([NEEDS_USER, NEEDS_USER, NEEDS_USER], { continuation: true });
    await setGoal(r);
    for (let i = 0; i < 3; i++) await r.goals.onTurnFinished(turn());
    const g = await r.goals.onPageAnswered(`pag_${'0'.repeat(26)}`, 'use postgres');
    assert.equal(g?.status, 'active');
    assert.equal(r.sent.at(-1)?.prompt, 'use postgres');
  });
});

describe('goal driver: limits', () => {
  it('max_turns is respected to the turn, and a completing last turn is still complete', async () => {
    const r = createRig([CONTINUE, CONTINUE, CONTINUE]);
    await setGoal(r, { maxTurns: 3 });
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'continue');
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'continue');
    assert.equal((await r.goals.onTurnFinished(turn())).decision, 'stop');
    const g = await r.goals.get(SESSION);
    assert.equal(g.status, 'max_turns');
    assert.equal(g.turns, 3);

    const last = createRig([CONTINUE, DONE]);
    await setGoal(last, { maxTurns: 2 });
    await last.goals.onTurnFinished(turn());
    await last.goals.onTurnFinished(turn());
    assert.equal(await status(last), 'complete');
  });

  it('budget_exhausted is respected to the token, auditor spend included', async () => {
    const r = createRig([CONTINUE, CONTINUE], { auditTokens: 10 });
    await setGoal(r, { tokenBudget: '220' });
    assert.equal((await r.goals.onTurnFinished(turn({ tokens: 100 }))).decision, 'continue'); // 110
    assert.equal((await r.goals.onTurnFinished(turn({ tokens: 100 }))).decision, 'stop'); // 220
    const g = await r.goals.get(SESSION);
    assert.equal(g.status, 'budget_exhausted');
    assert.equal(g.tokensUsed, 220);
    assert.equal(g.auditTokens, 20);
  });

  it('every continuation carries the persisted ceiling and budget, and the prompt carries what remains', async () => {
    const r = createRig([CONTINUE]);
    await setGoal(r, { maxTurns: 7, tokenBudget: 5000 });
    const d = await r.goals.onTurnFinished(turn());
    assert.equal(d.decision, 'continue');
    if (d.decision !== 'continue') return;
    assert.deepEqual({ ...d.limits, goalId: 'x' }, { goalId: 'x', maxTurns: 7, tokenBudget: 5000, turns: 1, tokensUsed: 110 });
    assert.match(d.prompt, /- write the tests/);
    assert.match(d.prompt, /turn 1 of at most 7/);
  });

  it('a restarted driver over the same store keeps driving with the goal\'s own limits', async () => {
    const repo = createMemoryGoalsRepository();
    const a = createRig([CONTINUE], { repo });
    await setGoal(a, { maxTurns: 2 });
    await a.goals.onTurnFinished(turn());
    const b = createRig([CONTINUE], { repo }); // a fresh daemon: nothing in memory
    assert.equal((await b.goals.onTurnFinished(turn())).decision, 'stop');
    assert.equal(await status(b), 'max_turns');
  });
});

describe('goal limits when none are given', () => {
  it('a goal set without a budget or ceiling takes the configured defaults; given ones win', async () => {
    const r = createRig([DONE]);
    r.settings.defaultTokenBudget = 300_000;
    r.settings.defaultMaxTurns = 7;
    const g = await setGoal(r);
    assert.equal(g.tokenBudget, 300_000);
    assert.equal(g.maxTurns, 7);
    const h = await setGoal(r, { tokenBudget: 5000, maxTurns: 3 });
    assert.equal(h.tokenBudget, 5000);
    assert.equal(h.maxTurns, 3);
    r.settings.defaultTokenBudget = null;
    assert.equal((await setGoal(r)).tokenBudget, null, 'no default budget: none, never 0');
  });
});
