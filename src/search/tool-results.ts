/**
 * What `search_sessions` answers, over MCP and its REST twin alike: the API's results without the
 * mark ranges (noise to a model). Kept apart from the tool's zod schema, which only the MCP endpoint loads.
 */
import type { SearchResult } from './types.ts';

/** Sessions a tool call returns without `limit`: fewer than the API's 20, a model reads them all. */
export const SEARCH_TOOL_DEFAULT_LIMIT = 10;

export function toolResults(results: SearchResult[]): { results: unknown[] } {
  return { results: results.map((r) => ({ session: r.session, hits: r.hits.map(({ role, at, snippet, position }) => ({ role, at, snippet, position })) })) };
}
