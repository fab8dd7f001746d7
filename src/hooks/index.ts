export { transitionFor, isHarness, isEventName, sessionIdOf, type HookStatus, type Transition } from './transitions.ts';
export { createHookService, type HookService, type HookServiceOptions, type HookInput, type HookAnswer, type HookDecision } from './service.ts';
export { CLAUDE_STOP_HOOK_TIMEOUT_S, STOP_WAIT_MAX_MS, CLAUDE_DEFAULT_BLOCK_CAP, blockCapFrom, claudeHookTimeoutS } from './stop-wait.ts';
