/**
 * A goal, worn by its session's character (list row and canvas): status mark, turns against the
 * ceiling, tokens against the budget, and — from the last verdict — what remains. The title carries
 * the whole of it for a hover.
 */
import { memo } from 'react';
import { compact } from './format.ts';
import type { GoalView } from './types.ts';

const MARK: Record<string, string> = { active: '◎', paused: '⏸', complete: '✓', blocked: '⚠', audit_failed: '⚠', budget_exhausted: '■', max_turns: '■' };

/** What the last verdict says remains (or why it could not be taken). */
export function remainingOf(goal: GoalView): string | null {
  const a = goal.lastAudit;
  if (!a) return null;
  if (a.error) return `audit failed: ${a.error}`;
  if (!a.verdict) return null;
  if (a.verdict.allDone) return 'auditor: all done';
  const left = a.verdict.remaining.join('; ');
  return `${a.verdict.needsUser ? 'needs you — ' : ''}${left || 'work remains'}`;
}

export function goalTitle(goal: GoalView): string {
  const budget = goal.tokenBudget === null ? '' : ` of ${compact(goal.tokenBudget)}`;
  const remaining = remainingOf(goal);
  return [`Goal (${goal.status}): ${goal.objective}`, `turn ${goal.turns}/${goal.maxTurns} · ${compact(goal.tokensUsed)}${budget} tokens`, remaining && `remaining: ${remaining}`, goal.reason && `reason: ${goal.reason}`].filter(Boolean).join('\n');
}

export const GoalBadge = memo(function GoalBadge({ goal, wide = false }: { goal: GoalView; wide?: boolean }) {
  const remaining = remainingOf(goal);
  return (
    <span className={`goal-badge g-${goal.status}${goal.evaluating ? ' evaluating' : ''}`} title={goalTitle(goal)} data-testid="goal-badge" data-goal-status={goal.status}>
      <span className="g-mark">{goal.evaluating ? '⟳' : (MARK[goal.status] ?? '◎')}</span>
      <span className="g-turns">{goal.turns}/{goal.maxTurns}</span>
      <span className="g-tokens">{compact(goal.tokensUsed)}{goal.tokenBudget === null ? '' : `/${compact(goal.tokenBudget)}`}</span>
      {wide && remaining && <span className="g-left">{remaining}</span>}
    </span>
  );
});
