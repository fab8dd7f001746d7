// Goals: records, the driver (after every finished turn: continue, stop or page), budget normalisation, auditor providers, continuation ports.
export { createGoals, MAX_OBJECTIVE, type Goals, type GoalsOptions, type SetGoalInput, type ResumeInput } from './service.ts';
export { createGoalDriver, STRIKES_TO_BLOCK, FAILURES_TO_STOP, type GoalDriver, type GoalDriverOptions } from './driver.ts';
export { normaliseBudget, normaliseMaxTurns, DEFAULT_MAX_TURNS, MAX_MAX_TURNS } from './budget.ts';
export { newGoalId, isGoalId } from './goal-id.ts';
export { finalReport, type ReportMessage } from './report.ts';
export { continuationPrompt, resumePrompt } from './prompt.ts';
export { createAuditorFactory, failingAuditor, auditorForms, type AuditorFactory, type AuditorFactoryOptions, type AuditorHarnesses } from './auditor/factory.ts';
export { createAnthropicAuditor, createOpenAiAuditor, type HttpAuditorOptions } from './auditor/http-auditors.ts';
export { createCliAuditor, type CliAuditorOptions } from './auditor/cli-auditors.ts';
export { parseVerdict, auditPrompt, AUDIT_SYSTEM } from './auditor/verdict.ts';
export type { Auditor, AuditRequest, AuditResult, CommandRunner, CommandResult, FetchFn } from './auditor/port.ts';
export {
  GOAL_STATUSES, SETTLED_STATUSES, DEFAULT_GOAL_SETTINGS,
  type Goal, type GoalStatus, type Verdict, type LastAudit, type TurnFinished, type TurnDecision, type GoalLimits,
  type GoalSettings, type GoalsRepository, type PagePort, type ContinuationPort,
} from './types.ts';
export { createPagerPagePort, type PagerLike } from './pager-port.ts';
export { createHookDecider, type HookDecider, type HookDeciderOptions, type HandoffInput, type HandoffWhy, type StopHookAnswer } from './hook-decision.ts';
export { createStopHandoff, type StopHandoffOptions, type StopHandoffOperations } from './stop-handoff.ts';
