/**
 * Goals: an objective a session is driven toward, judged after every
 * finished turn by an independent auditor model. The records, the verdicts and the ports the driver
 * talks through live here; the store, the auditor providers and the continuations implement them.
 */
import type { Harness } from '../core/session.ts';

export const GOAL_STATUSES = ['active', 'paused', 'complete', 'blocked', 'audit_failed', 'budget_exhausted', 'max_turns'] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

/** Statuses that end a run by themselves (a pause is the operator's, not a settlement). */
export const SETTLED_STATUSES: readonly GoalStatus[] = ['complete', 'blocked', 'audit_failed', 'budget_exhausted', 'max_turns'];

/** What the auditor answered, strictly `{ allDone, remaining, needsUser }`. */
export interface Verdict {
  allDone: boolean;
  /** What is still to do, in the auditor's words (empty when done). */
  remaining: string[];
  needsUser: boolean;
}

/** The last audit of a goal, kept on the record for the board ("the last verdict with what remains"). */
export interface LastAudit {
  at: string;
  /** null when the audit could not be taken. */
  verdict: Verdict | null;
  /** Why the audit failed (error, timeout, unparseable answer); null when it succeeded. */
  error: string | null;
  /** The auditor spec that judged (e.g. `anthropic/claude-x`, `cli:claude`). */
  auditor: string;
}

export interface Goal {
  /** `gol_` + 26 time-sortable characters. */
  id: string;
  sessionId: string;
  harness: Harness;
  objective: string;
  status: GoalStatus;
  /** Tokens the goal may spend (turns and audits together); null = no budget (never 0). */
  tokenBudget: number | null;
  /** Turn ceiling (persisted: every continuation carries it). */
  maxTurns: number;
  /** Finished turns counted for this goal. */
  turns: number;
  /** Tokens spent by the session's turns and by the auditor. */
  tokensUsed: number;
  /** Of tokensUsed, what the auditor spent. */
  auditTokens: number;
  /** Wall time between the goal's first and last counted turn, seconds. */
  timeUsedSeconds: number;
  /** needsUser verdicts in a row (three → blocked). */
  strikes: number;
  /** Audits in a row that could not be taken (two → audit_failed). */
  auditFailures: number;
  /** Auditor spec for this goal ('' = the settings' auditModel, else the session's own harness and model). */
  auditor: string;
  lastAudit: LastAudit | null;
  /** Why the goal settled, in words (the auditor's reason for blocked, the limit hit…). */
  reason: string | null;
  /** The page raised when the goal blocked (its answer resumes the goal). */
  pageId: string | null;
  createdAt: string;
  updatedAt: string;
  settledAt: string | null;
  /** Fleet: the name of the host that owns this goal, on another host's goal only. */
  host?: string;
  /** Fleet: the owning host's id, on another host's goal only. */
  hostId?: string;
}

/** One finished turn, as a hook, a headless run or a watcher reports it. */
export interface TurnFinished {
  sessionId: string;
  harness: Harness;
  /** The turn's final report: the last non-empty assistant message (never a tool result). */
  lastAssistantText: string | null;
  /** Tokens the turn spent (all kinds summed). Default: 0. */
  tokens?: number;
  /** The session's model, when known (the default auditor uses it). */
  model?: string | null;
  /** The session's cwd, for CLI auditors. */
  cwd?: string | null;
  /** Only a turn that ended normally is judged; an interrupted or failed one changes nothing. Default: 'completed'. */
  outcome?: 'completed' | 'interrupted' | 'failed';
  /**
   * True when the reporter delivers a `continue` decision itself (a Stop hook that blocks, a headless
   * run that sends the next turn). Otherwise the driver needs a continuation port that can reach the
   * session; without one it does nothing. Default: true.
   */
  delivers?: boolean;
}

/** The goal's own limits, carried by every continuation so a restarted daemon or a new process enforces them. */
export interface GoalLimits {
  goalId: string;
  maxTurns: number;
  tokenBudget: number | null;
  turns: number;
  tokensUsed: number;
}

export type TurnDecision =
  | { decision: 'continue'; prompt: string; limits: GoalLimits }
  | { decision: 'stop'; reason: string; goal: Goal | null };

/** Goal settings, read from the store at every decision (never cached). */
export interface GoalSettings {
  auditEnabled: boolean;
  /** Auditor spec; '' = the session's own harness and model. */
  auditModel: string;
  /** Bound of one audit, ms. */
  auditTimeoutMs: number;
  /** Token budget of a goal set without one; null = none. */
  defaultTokenBudget?: number | null;
  /** Turn ceiling of a goal set without one. */
  defaultMaxTurns?: number;
}

export const DEFAULT_GOAL_SETTINGS: GoalSettings = { auditEnabled: true, auditModel: '', auditTimeoutMs: 120_000, defaultTokenBudget: null, defaultMaxTurns: 50 };

/** Async so a PostgreSQL implementation can satisfy it (fleet-shared). */
export interface GoalsRepository {
  insert(goal: Goal): Promise<void>;
  get(id: string): Promise<Goal | undefined>;
  /** The goal of a session (one per session). */
  getBySession(sessionId: string): Promise<Goal | undefined>;
  list(filter?: { status?: GoalStatus; limit?: number }): Promise<Goal[]>;
  /**
   * Writes `goal` over the stored row only if the stored status is still `ifStatus` (compare-and-set),
   * so an operator's pause during an audit is never overwritten. Returns whether it was written.
   */
  update(goal: Goal, ifStatus?: GoalStatus): Promise<boolean>;
  /** Removes the goal; true when a row was deleted. */
  remove(id: string): Promise<boolean>;
}

/** The operator's pager, as the goals need it (the lead wires src/pager/ behind it). Must not throw. */
export interface PagePort {
  /** A question to the operator; resolves with the page id, or null when no page could be raised. */
  ask(input: { sessionId: string; harness: Harness; question: string; context: string }): Promise<string | null>;
  /** One notice (a goal settled). */
  notify(input: { sessionId: string; harness: Harness; message: string; level: 'success' | 'warning' | 'error' }): Promise<void>;
}

/**
 * Sends the next turn to a session the reporter cannot deliver to itself (opencode prompt_async, pi
 * RPC, `codex exec resume`, `claude -p --resume`…). Must not throw: failures are returned.
 */
export interface ContinuationPort {
  canSend(sessionId: string, harness: Harness): boolean | Promise<boolean>;
  send(input: { sessionId: string; harness: Harness; prompt: string; limits: GoalLimits }): Promise<{ ok: true } | { ok: false; error: string }>;
}
