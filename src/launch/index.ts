export { newLaunchId, isLaunchId, LAUNCH_ID_RE } from './launch-id.ts';
export { createLaunchService, type LaunchService, type LaunchServiceOptions, type LaunchInput } from './service.ts';
export type { LaunchRecord, LaunchPatch, LaunchesRepository } from './types.ts';
