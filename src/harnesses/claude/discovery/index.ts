/** The Claude Code session source and its pure parsers. */
export { createClaudeSource } from './source.ts';
export type { ClaudeSourceOptions } from './source.ts';
export { parseRegistryEntry, paneFromTmuxField, registryFilePid } from './registry.ts';
export type { RegistryEntry, RegistryParse } from './registry.ts';
export { isClaudeProcess, scanRegistry, staleReason } from './live.ts';
export type { RegistryScan } from './live.ts';
export { applyRecord, createTranscriptSummary, ignoreTranscriptLine, titleOf } from './transcript.ts';
export type { TranscriptSummary } from './transcript.ts';
export { buildSession, statusFromRegistry, PROMPT_CACHE_TTL_MS } from './build-session.ts';
export { cwdToSlug } from './slug.ts';
