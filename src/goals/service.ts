/**
 * The goals capability as the API, the CLI and the hooks use it: set, pause, resume, clear, show, list,
 * and `onTurnFinished` (the driver). A goal is named by its id or by its session's id. `clear` always
 * works, whatever state the record is in: no goal can only be stopped by hand-editing the database.
 */
import { MusterError } from '../errors/index.ts';
import { isSessionIdFor, isSessionId } from '../harnesses/registry.ts';
import { type Harness } from '../core/session.ts';
import { HARNESSES } from '../harnesses/registry.ts';
import { normaliseBudget, normaliseMaxTurns } from './budget.ts';
import { createGoalDriver, type GoalDriver, type GoalDriverOptions } from './driver.ts';
import { isGoalId, newGoalId } from './goal-id.ts';
import { resumePrompt } from './prompt.ts';
import { GOAL_STATUSES, type Goal, type GoalStatus, type TurnDecision, type TurnFinished } from './types.ts';

/** Longest objective, characters. */
export const MAX_OBJECTIVE = 8000;

export interface SetGoalInput {
  sessionId: string;
  harness: Harness;
  objective: string;
  /** Normalised: see normaliseBudget. */
  tokenBudget?: unknown;
  maxTurns?: unknown;
  /** Auditor spec for this goal; '' = settings, then the session's own harness and model. */
  auditor?: string;
}

export interface ResumeInput {
  /** Sent as the next turn when a continuation can reach the session (e.g. a page's answer). */
  prompt?: string;
  tokenBudget?: unknown;
  maxTurns?: unknown;
}

export type GoalsOptions = GoalDriverOptions;

export interface Goals {
  set(input: SetGoalInput): Promise<Goal>;
  get(ref: string): Promise<Goal>;
  /** The goal of a session, or undefined (no throw). */
  forSession(sessionId: string): Promise<Goal | undefined>;
  list(filter?: { status?: string; limit?: number }): Promise<Goal[]>;
  pause(ref: string): Promise<Goal>;
  /** A fresh start: strikes and failures reset, the standing stop lifted. */
  resume(ref: string, input?: ResumeInput): Promise<Goal>;
  /** Removes the goal; always works. Returns the removed goal id, or null when there was none. */
  clear(ref: string): Promise<string | null>;
  onTurnFinished(turn: TurnFinished): Promise<TurnDecision>;
  /** A page's answer: resumes the goal that raised it, with the answer as the next prompt. */
  onPageAnswered(pageId: string, answer: string): Promise<Goal | null>;
}

export function createGoals(opts: GoalsOptions): Goals {
  const clock = opts.clock ?? Date.now;
  const { repo } = opts;
  const driver: GoalDriver = createGoalDriver(opts);
  const iso = () => new Date(clock()).toISOString();

  async function find(ref: string): Promise<Goal | undefined> {
    if (isGoalId(ref)) return repo.get(ref);
    if (isSessionId(ref)) return repo.getBySession(ref);
    throw new MusterError('invalid_id', 'not a goal id (gol_…) or a session id');
  }
  async function mustFind(ref: string): Promise<Goal> {
    const g = await find(ref);
    if (!g) throw new MusterError('goal_not_found', `no goal for ${ref}`);
    return g;
  }
  async function write(g: Goal, ifStatus: GoalStatus): Promise<Goal> {
    if (!(await repo.update(g, ifStatus))) throw new MusterError('goal_conflict', `goal ${g.id} changed meanwhile; retry`);
    opts.publish('goal.updated', g);
    return g;
  }

  return {
    async set(input) {
      if (!(HARNESSES as readonly string[]).includes(input.harness)) throw new MusterError('invalid_argument', `harness must be one of ${HARNESSES.join(', ')}`);
      if (typeof input.sessionId !== 'string' || !isSessionIdFor(input.harness, input.sessionId)) throw new MusterError('invalid_id', `not a ${input.harness} session id`);
      const objective = typeof input.objective === 'string' ? input.objective.trim() : '';
      if (objective === '') throw new MusterError('invalid_argument', 'the objective is empty; say what "done" means');
      if (objective.length > MAX_OBJECTIVE) throw new MusterError('invalid_argument', `the objective is longer than ${MAX_OBJECTIVE} characters`);
      const auditor = typeof input.auditor === 'string' ? input.auditor.trim() : '';
      // A goal set without limits takes the configured defaults (settings goalDefaultTokenBudget / goalDefaultMaxTurns).
      const given = (v: unknown) => v !== undefined && v !== null && v !== '';
      const defaults = given(input.tokenBudget) && given(input.maxTurns) ? null : await opts.settings();
      const tokenBudget = given(input.tokenBudget) ? normaliseBudget(input.tokenBudget) : normaliseBudget(defaults?.defaultTokenBudget ?? null);
      const maxTurns = normaliseMaxTurns(given(input.maxTurns) ? input.maxTurns : defaults?.defaultMaxTurns);
      const now = iso();
      const goal: Goal = {
        id: newGoalId(clock()), sessionId: input.sessionId, harness: input.harness, objective, status: 'active',
        tokenBudget, maxTurns,
        turns: 0, tokensUsed: 0, auditTokens: 0, timeUsedSeconds: 0, strikes: 0, auditFailures: 0, auditor,
        lastAudit: null, reason: null, pageId: null, createdAt: now, updatedAt: now, settledAt: null,
      };
      await repo.insert(goal); // replaces any earlier goal of the session
      opts.publish('goal.updated', goal);
      return goal;
    },
    get: mustFind,
    async forSession(sessionId) {
      return repo.getBySession(sessionId);
    },
    async list(filter = {}) {
      if (filter.status !== undefined && !(GOAL_STATUSES as readonly string[]).includes(filter.status)) {
        throw new MusterError('invalid_argument', `status must be one of ${GOAL_STATUSES.join(', ')}`);
      }
      return repo.list({ status: filter.status as GoalStatus | undefined, limit: Math.min(Math.max(filter.limit ?? 200, 1), 1000) });
    },
    async pause(ref) {
      const g = await mustFind(ref);
      if (g.status === 'paused') return g;
      return write({ ...g, status: 'paused', reason: 'paused by the operator', updatedAt: iso() }, g.status);
    },
    async resume(ref, input = {}) {
      const g = await mustFind(ref);
      const next: Goal = {
        ...g, status: 'active', strikes: 0, auditFailures: 0, reason: null, pageId: null, settledAt: null, updatedAt: iso(),
        tokenBudget: input.tokenBudget === undefined ? g.tokenBudget : normaliseBudget(input.tokenBudget),
        maxTurns: input.maxTurns === undefined ? g.maxTurns : normaliseMaxTurns(input.maxTurns),
      };
      const resumed = await write(next, g.status);
      const c = opts.continuation;
      if (c && (await c.canSend(g.sessionId, g.harness))) {
        const prompt = input.prompt?.trim() || resumePrompt(resumed);
        const sent = await c.send({ sessionId: g.sessionId, harness: g.harness, prompt, limits: driver.limitsOf(resumed) }).catch((e: unknown) => ({ ok: false as const, error: (e as Error).message }));
        if (!sent.ok) opts.log?.(`[goals] resume could not reach ${g.sessionId}: ${sent.error}`);
      }
      return resumed;
    },
    async clear(ref) {
      const g = await find(ref);
      if (!g) return null;
      await repo.remove(g.id);
      opts.publish('goal.updated', { ...g, cleared: true });
      return g.id;
    },
    onTurnFinished: (turn) => driver.onTurnFinished(turn),
    async onPageAnswered(pageId, answer) {
      const blocked = await repo.list({ status: 'blocked', limit: 1000 });
      const g = blocked.find((x) => x.pageId === pageId);
      if (!g) return null;
      return this.resume(g.id, { prompt: answer });
    },
  };
}
