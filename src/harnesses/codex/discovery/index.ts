/** The Codex session source: rollouts, thread-writer locks, which process each held thread is live in, daemon status. */
export { createCodexSource } from './source.ts';
export type { CodexSource, CodexSourceOptions } from './source.ts';
export { assignCodexThreads } from './assign.ts';
export type { AssignProcess, AssignThread, Assignment, AssignmentKind } from './assign.ts';
export { classifyCodexProcess } from './argv.ts';
export type { CodexProcessClass, CodexProcessKind } from './argv.ts';
export { applyRolloutRecord, emptyRolloutSummary, rolloutIgnore, threadIdFromRolloutName, tokensFromUsage } from './rollout.ts';
export type { RolloutSummary } from './rollout.ts';
export { readRollout } from './rollout-file.ts';
export { scanThreadLocks } from './thread-locks.ts';
export type { HeldThreadLock, ThreadLockScan } from './thread-locks.ts';
export { connectAppServer, parseThreadRead, withAppServer } from './app-server-client.ts';
export type { AppServerClient, DaemonThreadStatus } from './app-server-client.ts';
export type { CodexGoal } from './thread-store.ts';
