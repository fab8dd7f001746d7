/** The GitHub Copilot CLI session source and its pure parsers. */
export { createCopilotSource } from './source.ts';
export type { CopilotSourceOptions } from './source.ts';
export { applyEvent, emptySummary, ignoredLine, turnRunning } from './events.ts';
export type { EventsSummary, PendingPermission } from './events.ts';
export { argvSessionClaim, isCopilotNative, scanLive } from './live.ts';
export type { LiveOwner, LiveScan } from './live.ts';
export { parseOpenState } from './open-state.ts';
export type { OpenEntry } from './open-state.ts';
export { parseFlatYaml, parseWorkspace } from './workspace-yaml.ts';
export type { Workspace } from './workspace-yaml.ts';
export { deriveStatus } from './status.ts';
export { readCopilotTail } from './tail.ts';
