export { createHub, compareSessions, type Hub, type HubOptions, type SessionFilter, type HubDiagnostics } from './hub.ts';
export { diffSessions, sessionKey, type SessionDiff } from './diff.ts';
