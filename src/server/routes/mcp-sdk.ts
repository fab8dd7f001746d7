/**
 * Everything /mcp needs from the MCP SDK (and zod, through the pager's tool schemas), in one module that
 * the endpoint loads on first use: importing it costs ~270 ms on this 2-core machine, more than the rest
 * of the daemon's start, and most daemons answer a board or a CLI long before an agent calls a tool.
 */
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
export { ListRootsResultSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
export { registerPagerTools } from '../../pager/mcp-tools.ts';
export { registerSearchTool } from '../../search/mcp-tool.ts';
