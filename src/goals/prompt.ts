/**
 * The continuation prompt: what the working agent reads at the start of the next turn. It carries the
 * auditor's list of what remains and the goal's own persisted limits, so the agent knows both the
 * work left and how much room it has.
 */
import type { Goal, LastAudit } from './types.ts';

export function continuationPrompt(goal: Goal, audit: LastAudit | null): string {
  const lines = [`Keep working toward this goal until it is fully done:`, goal.objective, ''];
  const v = audit?.verdict;
  if (v && v.remaining.length > 0) {
    lines.push('An independent auditor reviewed your last report. What still remains:');
    for (const r of v.remaining) lines.push(`- ${r}`);
  } else if (v) {
    lines.push('An independent auditor reviewed your last report and does not yet consider the goal done.');
  } else {
    lines.push('Your last turn could not be audited; continue toward the goal.');
  }
  if (v?.needsUser) {
    lines.push('', 'If you truly need a decision from the operator, say exactly what; otherwise proceed with your best judgement.');
  }
  const budget = goal.tokenBudget === null ? 'no token budget' : `${goal.tokensUsed} of ${goal.tokenBudget} tokens used`;
  lines.push('', `Limits: turn ${goal.turns} of at most ${goal.maxTurns}; ${budget}.`);
  lines.push('End each turn with a final report that shows the evidence of what is done.');
  return lines.join('\n');
}

/** The prompt a resumed goal starts with when the operator gave no text of their own. */
export function resumePrompt(goal: Goal): string {
  return `The operator resumed this goal. Keep working toward it until it is fully done:\n${goal.objective}`;
}
