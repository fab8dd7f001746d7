/**
 * The goal driver: after every finished turn of a session with an active goal, ask the
 * auditor about the objective and the turn's final report, and obey. Every rule here is pinned by
 * driver.test.ts. The goal is re-read from the store at each decision and written back with a
 * compare-and-set on `active`, so a restarted daemon keeps driving with the goal's own limits and an
 * operator's pause or clear during an audit always wins.
 */
import type { Publish } from '../events/index.ts';
import type { Auditor } from './auditor/port.ts';
import { continuationPrompt } from './prompt.ts';
import { DEFAULT_GOAL_SETTINGS } from './types.ts';
import type { ContinuationPort, Goal, GoalLimits, GoalSettings, GoalStatus, GoalsRepository, LastAudit, PagePort, TurnDecision, TurnFinished } from './types.ts';

/** needsUser verdicts in a row that block a goal. */
export const STRIKES_TO_BLOCK = 3;
/** Failed audits in a row that stop a goal. */
export const FAILURES_TO_STOP = 2;

export interface GoalDriverOptions {
  repo: GoalsRepository;
  /** Read at every decision; may throw or return partial values — the defaults fill in. */
  settings(): Promise<Partial<GoalSettings>>;
  /** Builds the auditor for a spec ('' = the session's own harness and model). Must not throw. */
  auditorFor(spec: string, session: { harness: Goal['harness']; model: string | null }): Auditor;
  /** Sends turns the reporter does not deliver itself. Default: none (such turns are not driven). */
  continuation?: ContinuationPort;
  /** Pages the operator when a goal blocks, and notifies once when one settles. Default: none. */
  pages?: PagePort;
  /** `goal.updated|evaluating|audited|settled`. Must not throw. */
  publish: Publish;
  clock?: () => number;
  log?(line: string): void;
}

export interface GoalDriver {
  onTurnFinished(turn: TurnFinished): Promise<TurnDecision>;
  /** Settles (or pages) a goal a decision just stopped; shared with the control API. */
  limitsOf(goal: Goal): GoalLimits;
}

export function createGoalDriver(opts: GoalDriverOptions): GoalDriver {
  const clock = opts.clock ?? Date.now;
  const log = opts.log ?? (() => {});
  const { repo } = opts;
  const auditing = new Set<string>();
  const iso = () => new Date(clock()).toISOString();

  const readSettings = async (): Promise<GoalSettings> => {
    try {
      const s = await opts.settings();
      return {
        auditEnabled: typeof s.auditEnabled === 'boolean' ? s.auditEnabled : DEFAULT_GOAL_SETTINGS.auditEnabled,
        auditModel: typeof s.auditModel === 'string' ? s.auditModel : DEFAULT_GOAL_SETTINGS.auditModel,
        auditTimeoutMs: typeof s.auditTimeoutMs === 'number' && s.auditTimeoutMs > 0 ? s.auditTimeoutMs : DEFAULT_GOAL_SETTINGS.auditTimeoutMs,
      };
    } catch (e) {
      log(`[goals] settings unreadable, defaults apply: ${(e as Error).message}`);
      return { ...DEFAULT_GOAL_SETTINGS };
    }
  };

  const limitsOf = (g: Goal): GoalLimits => ({ goalId: g.id, maxTurns: g.maxTurns, tokenBudget: g.tokenBudget, turns: g.turns, tokensUsed: g.tokensUsed });
  const stop = (reason: string, goal: Goal | null = null): TurnDecision => ({ decision: 'stop', reason, goal });

  async function settle(g: Goal, status: GoalStatus, reason: string): Promise<Goal | null> {
    let next: Goal = { ...g, status, reason, settledAt: iso(), updatedAt: iso() };
    if (!(await repo.update(next, 'active'))) return null;
    opts.publish('goal.updated', next);
    if (status === 'blocked' && opts.pages) {
      const question = `Goal blocked: ${g.objective}\nThe auditor says the operator is needed: ${reason}\nYour answer resumes the goal as its next prompt.`;
      const pageId = await opts.pages.ask({ sessionId: g.sessionId, harness: g.harness, question, context: `goal ${g.id}` }).catch(() => null);
      if (pageId) {
        next = { ...next, pageId };
        await repo.update(next, 'blocked');
        opts.publish('goal.updated', next);
      }
    } else if (status !== 'blocked' && opts.pages) {
      // One notification when the goal settles, never one per turn.
      const level = status === 'complete' ? 'success' : status === 'audit_failed' ? 'error' : 'warning';
      await opts.pages.notify({ sessionId: g.sessionId, harness: g.harness, message: `Goal ${status.replace('_', ' ')}: ${g.objective} (${reason})`, level }).catch(() => {});
    }
    opts.publish('goal.settled', next);
    return next;
  }

  async function audit(g: Goal, turn: TurnFinished, report: string, settings: GoalSettings): Promise<LastAudit & { tokens: number }> {
    const spec = g.auditor || settings.auditModel;
    const auditor = opts.auditorFor(spec, { harness: g.harness, model: turn.model ?? null });
    opts.publish('goal.evaluating', { goalId: g.id, sessionId: g.sessionId, evaluating: true });
    try {
      const r = await auditor.audit({ objective: g.objective, report, timeoutMs: settings.auditTimeoutMs, cwd: turn.cwd ?? null });
      return r.ok
        ? { at: iso(), verdict: r.verdict, error: null, auditor: auditor.spec, tokens: r.tokens }
        : { at: iso(), verdict: null, error: r.error, auditor: auditor.spec, tokens: r.tokens };
    } catch (e) {
      // The port says it must not throw; a provider that does is still only a failed audit.
      return { at: iso(), verdict: null, error: `auditor threw: ${(e as Error).message}`, auditor: auditor.spec, tokens: 0 };
    } finally {
      opts.publish('goal.evaluating', { goalId: g.id, sessionId: g.sessionId, evaluating: false });
    }
  }

  /** Applies the verdict rules to a goal that already carries this audit; returns the outcome. */
  function judge(g: Goal, a: LastAudit): { goal: Goal; settle?: { status: GoalStatus; reason: string } } {
    const v = a.verdict;
    if (!v) {
      const failures = g.auditFailures + 1;
      const goal = { ...g, auditFailures: failures };
      if (failures >= FAILURES_TO_STOP) return { goal, settle: { status: 'audit_failed', reason: `${failures} audits in a row could not be taken: ${a.error ?? 'unknown'}` } };
      return { goal };
    }
    if (v.allDone && v.remaining.length === 0) return { goal: { ...g, auditFailures: 0, strikes: 0 }, settle: { status: 'complete', reason: 'the auditor found nothing remaining' } };
    if (v.needsUser) {
      const strikes = g.strikes + 1;
      const goal = { ...g, auditFailures: 0, strikes };
      const why = v.remaining.join('; ') || 'the agent needs the operator';
      if (strikes >= STRIKES_TO_BLOCK) return { goal, settle: { status: 'blocked', reason: why } };
      return { goal };
    }
    return { goal: { ...g, auditFailures: 0, strikes: 0 } };
  }

  function limitHit(g: Goal): { status: GoalStatus; reason: string } | undefined {
    if (g.turns >= g.maxTurns) return { status: 'max_turns', reason: `turn ceiling reached (${g.turns} of ${g.maxTurns})` };
    if (g.tokenBudget !== null && g.tokensUsed >= g.tokenBudget) return { status: 'budget_exhausted', reason: `token budget spent (${g.tokensUsed} of ${g.tokenBudget})` };
    return undefined;
  }

  async function decide(goal: Goal, turn: TurnFinished, report: string, delivers: boolean): Promise<TurnDecision> {
    const settings = await readSettings();
    const tokens = Math.max(0, Math.floor(turn.tokens ?? 0));
    const counted: Goal = {
      ...goal,
      turns: goal.turns + 1,
      tokensUsed: goal.tokensUsed + tokens,
      timeUsedSeconds: Math.max(0, Math.round((clock() - Date.parse(goal.createdAt)) / 1000)),
      updatedAt: iso(),
    };
    if (!(await repo.update(counted, 'active'))) return stop('the goal changed before the turn was counted');
    opts.publish('goal.updated', counted);
    // Auditor off: the goal exists and counts, but nothing advances it.
    if (!settings.auditEnabled) return stop('the auditor is off', counted);

    const a = await audit(counted, turn, report, settings);
    const { tokens: auditTokens, ...lastAudit } = a;
    const current = await repo.get(counted.id);
    if (!current || current.status !== 'active') {
      if (current) await repo.update({ ...current, tokensUsed: current.tokensUsed + auditTokens, auditTokens: current.auditTokens + auditTokens, lastAudit }, current.status);
      return stop(`the goal is ${current?.status ?? 'cleared'}`, current ?? null);
    }
    const audited: Goal = { ...current, tokensUsed: current.tokensUsed + auditTokens, auditTokens: current.auditTokens + auditTokens, lastAudit, updatedAt: iso() };
    opts.publish('goal.audited', { goalId: audited.id, sessionId: audited.sessionId, verdict: lastAudit.verdict, error: lastAudit.error, auditor: lastAudit.auditor, tokens: auditTokens });

    const judged = judge(audited, lastAudit);
    const end = judged.settle ?? limitHit(judged.goal);
    if (end) {
      const settled = await settle(judged.goal, end.status, end.reason);
      return stop(end.reason, settled);
    }
    if (!(await repo.update(judged.goal, 'active'))) return stop('the goal changed during the audit');
    opts.publish('goal.updated', judged.goal);
    const prompt = continuationPrompt(judged.goal, lastAudit);
    const limits = limitsOf(judged.goal);
    if (!delivers && opts.continuation) {
      const sent = await opts.continuation.send({ sessionId: goal.sessionId, harness: goal.harness, prompt, limits }).catch((e: unknown) => ({ ok: false as const, error: (e as Error).message }));
      if (!sent.ok) log(`[goals] could not send the next turn to ${goal.sessionId}: ${sent.error}`);
    }
    return { decision: 'continue', prompt, limits };
  }

  return {
    limitsOf,
    async onTurnFinished(turn) {
      if ((turn.outcome ?? 'completed') !== 'completed') return stop('the turn did not end normally');
      const goal = await repo.getBySession(turn.sessionId);
      if (!goal || goal.status !== 'active') return stop(goal ? `the goal is ${goal.status}` : 'no goal', goal ?? null);
      const delivers = turn.delivers ?? true;
      if (!delivers && !(opts.continuation && (await opts.continuation.canSend(turn.sessionId, turn.harness)))) {
        return stop('no way to send the next turn', goal);
      }
      const report = (turn.lastAssistantText ?? '').trim();
      if (report === '') return stop('the turn has no final assistant text to audit', goal);
      if (auditing.has(turn.sessionId)) return stop('an audit of this session is already running', goal);
      auditing.add(turn.sessionId);
      try {
        return await decide(goal, turn, report, delivers);
      } finally {
        auditing.delete(turn.sessionId);
      }
    },
  };
}
