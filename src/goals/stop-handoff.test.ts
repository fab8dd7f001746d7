import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStopHandoff, type StopHandoffOperations } from './stop-handoff.ts';
import { createMemoryGoalsRepository } from './memory-repo.test-support.ts';
import type { Goal } from './types.ts';
import type { HandoffInput } from './hook-decision.ts';

const SID = '11111111-2222-4333-8444-555555555555';
const goal: Goal = {
  id: 'gol_01', sessionId: SID, harness: 'claude', objective: 'ship', status: 'active', tokenBudget: null, maxTurns: 50, turns: 9,
  tokensUsed: 0, auditTokens: 0, timeUsedSeconds: 0, strikes: 0, auditFailures: 0, auditor: '', lastAudit: null, reason: null,
  pageId: null, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', settledAt: null,
};
const input: HandoffInput = { sessionId: SID, harness: 'claude', prompt: 'next', limits: { goalId: 'gol_01', maxTurns: 50, tokenBudget: null, turns: 9, tokensUsed: 0 }, pid: 7, cwd: '/w', why: 'block_cap' };

async function setup(ops: Partial<StopHandoffOperations>) {
  const repo = createMemoryGoalsRepository();
  await repo.insert({ ...goal });
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const resumed: unknown[] = [];
  let now = 0;
  const handoff = createStopHandoff({
    repo,
    publish: (type, data) => void events.push({ type, data: data as Record<string, unknown> }),
    exitWaitMs: 1000,
    clock: () => now,
    ops: {
      exited: () => true,
      canContinue: (h) => h === 'claude',
      resumeHeadless: async (r) => (resumed.push(r), { ok: true }),
      sleep: async (ms) => void (now += ms),
      ...ops,
    },
  });
  return { repo, events, resumed, handoff };
}

test('the process exited: the next turn goes through claude --resume -p, and goal.handoff says so', async () => {
  let polls = 0;
  const s = await setup({ exited: () => ++polls > 3 });
  await s.handoff(input);
  assert.deepEqual(s.resumed, [{ harness: 'claude', sessionId: SID, prompt: 'next', cwd: '/w' }]);
  const h = s.events.find((e) => e.type === 'goal.handoff');
  assert.equal(h?.data.via, 'resume');
  assert.equal(h?.data.why, 'block_cap');
  assert.equal((await s.repo.get('gol_01'))?.status, 'active');
});

test('the session stays open (interactive): no second process; the goal is paused with the reason', async () => {
  const s = await setup({ exited: () => false });
  await s.handoff(input);
  assert.equal(s.resumed.length, 0);
  const g = await s.repo.get('gol_01');
  assert.equal(g?.status, 'paused');
  assert.match(g?.reason ?? '', /cap on consecutive Stop-hook blocks[\s\S]*still open/);
  assert.equal(s.events.find((e) => e.type === 'goal.handoff')?.data.via, 'paused');
});

test('a failed resume pauses with the error; a goal paused meanwhile is left alone', async () => {
  const s = await setup({ resumeHeadless: async () => ({ ok: false, error: 'spawn claude ENOENT' }) });
  await s.handoff(input);
  assert.match((await s.repo.get('gol_01'))?.reason ?? '', /ENOENT/);
  const t = await setup({});
  await t.repo.update({ ...goal, status: 'paused' }, 'active');
  await t.handoff(input);
  assert.equal(t.resumed.length, 0);
  assert.equal(t.events.length, 0);
});
