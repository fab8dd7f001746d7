/** OpenCode sessions: the source and its pure parsers. */
export { createOpenCodeSource } from './source.ts';
export type { OpenCodeSourceOptions } from './source.ts';
export { classifyOpenCodeArgv, isOpenCodeProcess, serverUrlOf } from './argv.ts';
export type { OpenCodeProcessClass, OpenCodeProcessKind } from './argv.ts';
export { assignOpenCodeSessions } from './liveness.ts';
export type { Claim, OpenCodeProcess, SessionRef } from './liveness.ts';
export { deriveOpenCodeStatus, DIED_MID_TURN } from './status.ts';
export type { DerivedStatus, StatusInput } from './status.ts';
export { createOpenCodeHttp, parsePermissionsBody, parseStatusBody } from './http.ts';
export type { OpenCodeHttpPort, PendingPermission, ServerSessionStatus, ServerView } from './http.ts';
export { openOpenCodeDb, scanOpenCodeDb } from './db-reader.ts';
export { scanJsonStorage } from './json-storage.ts';
export { isTurnOpen } from './summary.ts';
export type { OpenCodeSessionSummary } from './summary.ts';
