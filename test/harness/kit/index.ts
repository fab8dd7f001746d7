// Real-harness test kit: pinned CLI installs, isolated offline envs, a private tmux.
export { ensureHarnessCli, harnessCacheDir, installAll } from './install.ts';
export type { EnsureOptions, HarnessCli } from './install.ts';
export { HARNESS_NAMES, PINNED } from './pinned.ts';
export type { HarnessName, PinnedCli } from './pinned.ts';
export { FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY, harnessEnv } from './harness-env.ts';
export type { HarnessEnv, HarnessEnvOptions } from './harness-env.ts';
export { startTmux } from './tmux.ts';
export type { NewPaneOptions, Pane, Tmux, TmuxOptions } from './tmux.ts';
export { runCli } from './run-cli.ts';
export type { CliResult, RunCliOptions } from './run-cli.ts';
export { claudeTranscriptPath, findFiles, ompSessionDir, piSessionDir, readJsonl } from './session-paths.ts';
export { daemonEnv, startHarnessDaemon } from './daemon.ts';
export type { DaemonEvent, EventStream, HarnessDaemon, HarnessDaemonOptions } from './daemon.ts';
export { typeUntilSent } from './typing.ts';
export { freePort, startOpencodeServe } from './opencode-serve.ts';
export type { OpencodeServe } from './opencode-serve.ts';
