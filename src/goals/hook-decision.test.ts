import { test } from 'node:test';
import { turnEndOf } from '../harnesses/ports.ts';
import assert from 'node:assert/strict';
import { createHookDecider, type HandoffInput, type HookDeciderOptions } from './hook-decision.ts';
import type { TurnDecision } from './types.ts';

const SID = '11111111-2222-4333-8444-555555555555';
const LIMITS = { goalId: 'gol_x', maxTurns: 50, tokenBudget: null, turns: 1, tokensUsed: 0 };
const stop = (payload: Record<string, unknown> = {}) => ({ harness: 'claude' as const, event: 'Stop', payload: { last_assistant_message: 'did it', ...payload }, pid: 42 });

function decider(decisions: (() => Promise<TurnDecision>)[], extra: Partial<HookDeciderOptions> = {}) {
  const handoffs: HandoffInput[] = [];
  let n = 0;
  const d = createHookDecider({
    onTurnFinished: () => (decisions[n++] ?? (() => Promise.resolve({ decision: 'stop', reason: 'x', goal: null } as TurnDecision)))(),
    activeGoalSince: async () => 0,
    turnEndOf,
    auditTimeoutMs: async () => 1000,
    handoff: async (h) => void handoffs.push(h),
    collectGraceMs: 30,
    ...extra,
  });
  return { d, handoffs, calls: () => n };
}
const cont = (prompt: string) => () => Promise.resolve<TurnDecision>({ decision: 'continue', prompt, limits: LIMITS });
const ticketOf = (a: unknown) => {
  const t = a as { pending?: boolean; decisionId?: string; waitMs?: number };
  assert.equal(t.pending, true, `a ticket, got ${JSON.stringify(a)}`);
  return t as { decisionId: string; waitMs: number };
};

test('no active goal: the Stop is answered at once with null and nothing is audited', async () => {
  const { d, calls } = decider([cont('go')], { activeGoalSince: async () => null });
  assert.equal(await d.decide(stop(), SID), null);
  assert.equal(calls(), 0);
  assert.equal(await d.decide({ ...stop(), event: 'PreToolUse' }, SID), null);
});

test('active goal: a ticket at once (waitMs = audit bound + margin), the block collected once', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const { d, handoffs } = decider([async () => (await gate, { decision: 'continue', prompt: 'next', limits: LIMITS })]);
  const t = ticketOf(await d.decide(stop(), SID));
  assert.equal(t.waitMs, 6000);
  const waiting = d.collect(t.decisionId, 5000);
  release();
  assert.deepEqual(await waiting, { decision: 'block', reason: 'next' });
  assert.equal(await d.collect(t.decisionId, 10), null, 'delivered exactly once');
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(handoffs.length, 0);
});

test('a decision that arrives before the hook asks is still collected (within the grace)', async () => {
  const { d, handoffs } = decider([cont('next')]);
  const t = ticketOf(await d.decide(stop(), SID));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(await d.collect(t.decisionId, 100), { decision: 'block', reason: 'next' });
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(handoffs.length, 0);
});

test('a stop decision collects as null; unknown tickets are null', async () => {
  const { d } = decider([() => Promise.resolve({ decision: 'stop', reason: 'complete', goal: null })]);
  const t = ticketOf(await d.decide(stop(), SID));
  assert.equal(await d.collect(t.decisionId, 1000), null);
  assert.equal(await d.collect('dec_nope', 10), null);
});

test('regression: a continue whose hook gave up waiting is handed off (hook_gone), not dropped', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const { d, handoffs } = decider([async () => (await gate, { decision: 'continue', prompt: 'next', limits: LIMITS })]);
  const t = ticketOf(await d.decide(stop({ cwd: '/w' }), SID));
  assert.equal(await d.collect(t.decisionId, 20), null, 'the hook times out first');
  release();
  await new Promise((r) => setTimeout(r, 80));
  assert.equal(handoffs.length, 1);
  assert.deepEqual({ ...handoffs[0], limits: undefined }, { sessionId: SID, harness: 'claude', prompt: 'next', limits: undefined, pid: 42, cwd: '/w', why: 'hook_gone' });
});

test("Claude's block cap: block number cap+1 is not sent as a block but handed off (block_cap)", async () => {
  const { d, handoffs } = decider([cont('1'), cont('2'), cont('3')]);
  // cap 2: the first Stop (stop_hook_active false) and one more may block; the third would be overridden.
  for (const [i, active] of [[0, false], [1, true]] as const) {
    const t = ticketOf(await d.decide(stop({ muster_block_cap: 2, stop_hook_active: active }), SID));
    assert.deepEqual(await d.collect(t.decisionId, 1000), { decision: 'block', reason: String(i + 1) });
  }
  const t = ticketOf(await d.decide(stop({ muster_block_cap: 2, stop_hook_active: true }), SID));
  assert.equal(await d.collect(t.decisionId, 1000), null);
  assert.equal(handoffs.length, 1);
  assert.equal(handoffs[0]?.why, 'block_cap');
  assert.equal(handoffs[0]?.prompt, '3');
});

test('the block count starts over when stop_hook_active is false (a new prompt); cap 0 means none', async () => {
  const { d, handoffs } = decider([cont('1'), cont('2'), cont('3')]);
  for (const active of [false, true, false]) {
    const t = ticketOf(await d.decide(stop({ muster_block_cap: 1, stop_hook_active: active }), SID));
    const got = await d.collect(t.decisionId, 1000);
    if (active) assert.equal(got, null, 'second consecutive block exceeds cap 1');
    else assert.equal(got?.decision, 'block');
  }
  assert.deepEqual(handoffs.map((h) => h.why), ['block_cap']);
  const { d: free } = decider(Array.from({ length: 12 }, (_, i) => cont(String(i))));
  for (let i = 0; i < 12; i++) {
    const t = ticketOf(await free.decide(stop({ muster_block_cap: 0, stop_hook_active: i > 0 }), SID));
    assert.equal((await free.collect(t.decisionId, 1000))?.decision, 'block');
  }
});

test('a turn end without last_assistant_message (Copilot\'s agentStop) is audited on the report read from the transcript', async () => {
  const turns: { lastAssistantText: string | null }[] = [];
  const asked: string[] = [];
  const d = createHookDecider({
    onTurnFinished: async (turn) => (turns.push(turn), { decision: 'stop', reason: 'x', goal: null } as TurnDecision),
    activeGoalSince: async () => 0,
    turnEndOf,
    auditTimeoutMs: async () => 1000,
    reportOf: async (harness, id) => (asked.push(`${harness}:${id}`), 'read from the events'),
  });
  ticketOf(await d.decide({ harness: 'copilot', event: 'agentStop', payload: { sessionId: SID, transcriptPath: '/x/events.jsonl' }, pid: null }, SID));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(asked, [`copilot:${SID}`]);
  assert.equal(turns[0]?.lastAssistantText, 'read from the events');
  // A payload that carries the report is taken as it is.
  ticketOf(await d.decide(stop(), SID));
  await new Promise((r) => setImmediate(r));
  assert.equal(turns[1]?.lastAssistantText, 'did it');
  assert.equal(asked.length, 1);
});

test('regression: a turn end repeated for the turn already judged (same muster_turn_id) is not judged again', async () => {
  const { d, calls } = decider([cont('one'), cont('two'), cont('three')]);
  const idle = (turn: string) => ({ harness: 'opencode' as const, event: 'session.idle', payload: { sessionID: 'ses_x', last_assistant_message: 'hi', muster_turn_id: turn }, pid: 7 });
  ticketOf(await d.decide(idle('msg_1'), SID));
  assert.equal(await d.decide(idle('msg_1'), SID), null, 'OpenCode went idle twice after one turn');
  ticketOf(await d.decide(idle('msg_2'), SID));
  assert.equal(calls(), 2, 'two turns judged, not three');
  // Without the id (other harnesses, older plugins) every turn end is judged, as before.
  ticketOf(await d.decide(stop(), SID));
  assert.equal(calls(), 3);
});

test('regression: a turn that ended before the goal was set (reported late) is not judged; one that ended after is', async () => {
  // Seen with OpenCode's plugin: the first turn's idle was read and reported after the operator set the goal,
  // so the goal counted a turn that never ran for it and sent a continuation beside the operator's prompt.
  const setAt = 1_000_000;
  const { d, calls } = decider([cont('one')], { activeGoalSince: async () => setAt });
  const idle = (turn: string, endedAt: unknown) => ({ harness: 'opencode' as const, event: 'session.idle', payload: { sessionID: 'ses_x', last_assistant_message: 'hi', muster_turn_id: turn, muster_turn_ended_at: endedAt }, pid: 7 });
  assert.equal(await d.decide(idle('msg_1', setAt - 300), SID), null);
  assert.equal(calls(), 0, 'the turn before the goal is not audited');
  ticketOf(await d.decide(idle('msg_2', setAt + 5), SID));
  assert.equal(calls(), 1);
  // A time that is not a number is no evidence: the turn is judged, as without one.
  ticketOf(await d.decide(idle('msg_3', 'yesterday'), SID));
  assert.equal(calls(), 2);
});
