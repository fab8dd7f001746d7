/** Cold indexing in worker threads: the contract, the indexer, and the worker side. */
export { createColdIndexer, toBatches } from './pool.ts';
export type { ColdIndexerOptions } from './pool.ts';
export { foldBatch, runIndexWorker } from './worker.ts';
export { spawnIndexWorker } from './spawn.ts';
export { INDEX_THREAD_NAME, SEARCH_THREAD_NAME, nameThisThread } from './thread-name.ts';
export type { BatchReply, BatchRequest, ColdIndexer, FileFold, FileResult, FileTask, FoldRegistry } from './types.ts';
export { DEFAULT_COLD_MIN_BYTES, failedResult, startColdRun } from './cold-run.ts';
export type { ColdIndexing, ColdRun, ColdRunOptions, ListedFile } from './cold-run.ts';
