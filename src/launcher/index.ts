// `muster new`: new agent sessions opened through the wrapper in a new pane, in a directory or a new worktree of it.
export { createLauncher, type Launcher, type LauncherOptions, type LauncherOperations } from './launcher.ts';
export { harnessReadiness, type Readiness } from './readiness.ts';
export { firstPrompt, newGoal, sessionName, MAX_NAME, MAX_PROMPT } from './request.ts';
export type { GoalReadiness, NewGoal, NewSessionAnswer, NewSessionRequest } from './types.ts';
