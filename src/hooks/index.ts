export { transitionFor, isHarness, isEventName, sessionIdOf, type HookStatus, type Transition } from './transitions.ts';
export { createHookService, type HookService, type HookServiceOptions, type HookInput, type HookAnswer, type HookDecision } from './service.ts';
