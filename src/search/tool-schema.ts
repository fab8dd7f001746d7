/**
 * The `search_sessions` tool's arguments and result, once, as zod shapes: the MCP endpoint registers
 * them, and the build turns them into JSON Schema for the pi/omp extension (its REST twin is POST
 * /api/search with the same arguments). Loaded only where zod may load (the MCP endpoint, the build).
 */
import { z } from 'zod';
import { MESSAGE_ROLES } from '../core/transcript-message.ts';
import { MAX_QUERY_CHARS } from './query-parser.ts';
import { SEARCH_LIMIT_MAX } from './service.ts';
import { SEARCH_TOOL_DEFAULT_LIMIT } from './tool-results.ts';

export const SEARCH_TOOL_TEXT = [
  'Search what earlier coding-agent sessions on this machine said and did (Claude Code, Codex and the other harnesses Muster indexes):',
  "the person's prompts, the agents' replies, and the tools they called with the files they touched.",
  'Use it to find where something was done before ("where was the flaky login test fixed?", "which session edited billing.ts?").',
  'Query: words (all must match), "exact phrases", prefix*, and filters harness:codex, role:user|assistant|tool-call, repo:<name>, branch:<name>, since:7d, until:2026-11-30.',
  'Results are grouped by session (id, harness, cwd, title) with snippets; each hit has a position in that session\'s transcript.',
].join(' ');

const hit = z.object({
  role: z.enum(MESSAGE_ROLES),
  at: z.string().nullable().describe('ISO time of the message, when known.'),
  snippet: z.string().describe('The text around the match, one line.'),
  position: z.number().int().describe("The message's position in its session's transcript."),
});

export const SEARCH_TOOL = {
  name: 'search_sessions',
  title: 'Search earlier sessions',
  description: SEARCH_TOOL_TEXT,
  input: {
    query: z.string().min(1).max(MAX_QUERY_CHARS).describe('The search query (see the description for its syntax).'),
    limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).optional().describe(`Most sessions to return. Default: ${SEARCH_TOOL_DEFAULT_LIMIT}.`),
  },
  output: {
    results: z.array(z.object({
      session: z.object({
        harness: z.string(),
        id: z.string(),
        title: z.string().nullable(),
        cwd: z.string().nullable(),
        repoRoot: z.string().nullable(),
        branch: z.string().nullable(),
        live: z.boolean(),
      }),
      hits: z.array(hit),
    })),
  },
} as const;

export interface SearchToolSpec {
  name: 'search_sessions';
  label: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** The tool as JSON Schema, for harnesses that take plain JSON-Schema tool parameters (pi, omp). */
export function searchToolSpec(): SearchToolSpec {
  const parameters = z.toJSONSchema(z.object(SEARCH_TOOL.input)) as Record<string, unknown>;
  delete parameters.$schema;
  return { name: SEARCH_TOOL.name, label: SEARCH_TOOL.title, description: SEARCH_TOOL.description, parameters };
}
