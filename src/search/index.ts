/** Search: full-text search over every harness's transcripts, and reading a session's messages. */
export { createSearchService, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from './service.ts';
export type { SearchRequest, SearchService, SearchServiceOptions } from './service.ts';
export { parseSearchQuery, MAX_QUERY_CHARS, MAX_TERMS } from './query-parser.ts';
export type { ParseResult } from './query-parser.ts';
export { markSnippet } from './snippet.ts';
export type { CompiledQuery, SearchHit, SearchIndexStats, SearchRepository, SearchResult, SearchRow, SearchSessionRef } from './types.ts';
export { SEARCH_TOOL_DEFAULT_LIMIT, toolResults } from './tool-results.ts';
