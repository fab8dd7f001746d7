export { isEventName } from './event-name.ts';
export { createHookService, type HookService, type HookServiceOptions, type HookInput, type HookAnswer, type HookDecision } from './service.ts';
export { GOAL_RUN_ENV, STOP_WAIT_MAX_MS, TURN_END_HOOK_TIMEOUT_S, hookTimeoutS } from './stop-wait.ts';
export { createHookSightings, type HookSightingStore, type HookSightingsOptions } from './sightings.ts';
