/**
 * The hooks' decision seam (src/hooks/service.ts `decide`): a Claude or Codex `Stop` is a finished
 * turn; the driver's `continue` becomes `{ decision: 'block', reason: <continuation prompt> }`, which
 * `muster hook` prints in the harness's Stop-hook format so the same process runs the next turn.
 * Claude's `stop_hook_active` is not consulted: the goal's persisted turn ceiling bounds the loop.
 */
import type { Harness } from '../sources/session.ts';
import type { TurnDecision, TurnFinished } from './types.ts';

export interface HookDeciderOptions {
  onTurnFinished(turn: TurnFinished): Promise<TurnDecision>;
  /**
   * Cumulative tokens of the session as Muster knows them (the hub), for the per-turn delta. Must not
   * throw; null when unknown. Default: none (turns count 0 tokens through hooks).
   */
  sessionTokens?(sessionId: string): number | null | Promise<number | null>;
  /** The session's model and cwd, when known (the default auditor and CLI auditors use them). */
  sessionInfo?(sessionId: string): { model: string | null; cwd: string | null } | undefined;
}

const STOP_EVENTS = new Set(['Stop']);

export function createHookDecider(o: HookDeciderOptions) {
  // Last cumulative total seen per session. After a daemon restart the first turn counts from the
  // total then (not from zero), so a restart never charges a goal with the session's whole history.
  const seen = new Map<string, number>();
  return async (input: { harness: Harness; event: string; payload: Record<string, unknown> }, sessionId: string | null): Promise<{ decision: 'block'; reason: string } | null> => {
    if (!sessionId || !STOP_EVENTS.has(input.event) || (input.harness !== 'claude' && input.harness !== 'codex')) return null;
    const text = input.payload.last_assistant_message;
    const total = (await o.sessionTokens?.(sessionId)) ?? null;
    const before = seen.get(sessionId);
    if (total !== null) seen.set(sessionId, total);
    const tokens = total !== null && before !== undefined ? Math.max(0, total - before) : 0;
    const info = o.sessionInfo?.(sessionId);
    const cwd = typeof input.payload.cwd === 'string' ? input.payload.cwd : info?.cwd ?? null;
    const d = await o.onTurnFinished({ sessionId, harness: input.harness, lastAssistantText: typeof text === 'string' ? text : null, tokens, model: info?.model ?? null, cwd });
    return d.decision === 'continue' ? { decision: 'block', reason: d.prompt } : null;
  };
}
