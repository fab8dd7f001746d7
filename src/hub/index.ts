export { createHub, compareSessions, sessionMatches, type Hub, type HubOptions, type SessionFilter, type HubDiagnostics } from './hub.ts';
export { diffSessions, sessionKey, type SessionDiff } from './diff.ts';
export { createActions, paneLabel, shellLine, ACTORS, type Actions, type ActionsOptions, type ActionRecord, type ActionLog, type Actor, type ActionKind, type PaneOps, type PaneFocus, type FocusAnswer, type ResumeAnswer, type EndAnswer } from './actions.ts';
export { createHookStatus, type HookStatusOverlay, type HookStatusEvent, type HookStatusOptions } from './hook-status.ts';
export { createActionRecorder, type ActionRecorder, type ActionRecorderOptions } from './action-log.ts';
export { createIndexingTracker, type IndexingStatus, type IndexingTracker } from './indexing.ts';
