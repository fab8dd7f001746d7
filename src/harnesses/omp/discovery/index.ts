/** The omp session source and its file readers. */
export { createOmpSource, collectOmpLive } from './omp-source.ts';
export type { OmpSourceOptions, OmpPaths } from './omp-source.ts';
export { readRunClients } from './run-files.ts';
export type { RunClient, RunClientsRead } from './run-files.ts';
export { ptsNumber, readTerminalPointer } from './terminal-pointers.ts';
export type { TerminalPointer } from './terminal-pointers.ts';
export { readTitleLine } from './title-line.ts';
