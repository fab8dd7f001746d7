/**
 * The MCP tool `search_sessions`, registered on each MCP session's server beside the pager's tools.
 * Every result carries structured content and the same JSON as text. A query that cannot be read is a
 * tool error naming `invalid_query` and what to fix, never a protocol crash.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isMusterError } from '../errors/index.ts';
import type { SearchService } from './service.ts';
import { SEARCH_TOOL } from './tool-schema.ts';
import { SEARCH_TOOL_DEFAULT_LIMIT, toolResults } from './tool-results.ts';

export interface SearchToolOptions {
  search: SearchService;
  log?(line: string): void;
}

export function registerSearchTool(server: McpServer, opts: SearchToolOptions): void {
  server.registerTool(
    SEARCH_TOOL.name,
    {
      title: SEARCH_TOOL.title,
      description: SEARCH_TOOL.description,
      inputSchema: SEARCH_TOOL.input,
      outputSchema: SEARCH_TOOL.output,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args): Promise<CallToolResult> => {
      try {
        const { results } = await opts.search.search({ q: args.query, limit: args.limit ?? SEARCH_TOOL_DEFAULT_LIMIT });
        const structured = toolResults(results);
        return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
      } catch (e) {
        if (isMusterError(e)) return { isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}` }] };
        opts.log?.(`[search] tool failed: ${(e as Error)?.stack ?? String(e)}`);
        return { isError: true, content: [{ type: 'text', text: 'internal: search failed; see the daemon log' }] };
      }
    },
  );
}
