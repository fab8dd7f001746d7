/**
 * The pi source, and the session-file machinery pi and omp share (omp imports it from here).
 */
export { createPiSource, collectPiLive } from './pi-source.ts';
export type { PiSourceOptions } from './pi-source.ts';
export { createFamilySource } from './family-source.ts';
export type { FamilyConfig, LiveEvidence } from './family-source.ts';
export { applyRecord, applyToolResult, emptySummary, toolResultFromHead } from './transcript-summary.ts';
export type { LastKind, PendingTool, SessionExit, TranscriptSummary } from './transcript-summary.ts';
export { deriveStatus, transcriptBusy } from './transcript-status.ts';
export type { DerivedStatus, StatusInput } from './transcript-status.ts';
export { scanTranscripts } from './transcript-scan.ts';
export { foldPiFile, isPiSummary, piFold } from './transcript-fold.ts';
export type { ScanOptions, ScanResult, ScannedTranscript } from './transcript-scan.ts';
export { idFromFileName, listSessionFiles, ompSessionDirName, piSessionDirName } from './session-files.ts';
export type { SessionFile, SessionFileListing } from './session-files.ts';
export { assignLive } from './live-assign.ts';
export type { AssignableTranscript, LiveOwner, LiveProcess } from './live-assign.ts';
export { readStatusRegistry } from './status-registry.ts';
export type { RegistryEntry, RegistryRead } from './status-registry.ts';
export { argValues, isOmpProcess, isPiProcess } from './harness-process.ts';
export { watchDirs } from './dir-watch.ts';
export type { DirWatchOptions } from './dir-watch.ts';
export { oneLine } from './records.ts';
