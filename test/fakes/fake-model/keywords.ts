/**
 * A ready-made request handler that scripts replies from keywords in the last user message
 * (only the last one: earlier keywords stay in the history), so a test can drive a real CLI with prompts alone:
 *
 * - `TOOL_BASH` → a shell tool call running `echo hello-from-tool`;
 * - `RUNCMD: <cmd>` (to the end of the line) → a shell tool call running `<cmd>`;
 * - `TOOLCALL: <name> <json>` → a call to any tool; `<server>/<tool>` becomes the harness's MCP name
 *   (`mcp__s__t` Claude, namespace `mcp__s` Codex, `mcp_s_t` Gemini, `s-t` Copilot, `s_t` other Chat Completions);
 * - `SLOW<n>` → the reply streams over n seconds; bare `SLOW` over 20 s.
 *
 * After a tool result it answers `tool done`, so a keyword still in the last typed message cannot
 * loop. Returns undefined when no keyword matches, letting the queue or the default answer.
 */
import { endsWithToolResult, lastUserText } from './inspect.ts';
import type { FakeRequest, Reply, RequestHandler, ToolCall } from './types.ts';

export interface KeywordHandlerOptions {
  /** Command run by `TOOL_BASH`. Default: `echo hello-from-tool`. */
  bashCommand?: string;
  /** Text answered after a tool result. Default: `tool done`. */
  afterToolText?: string;
}

/** Copilot CLI sends OpenAI's SDK headers plus its own interaction headers; no session id. */
function isCopilot(req: FakeRequest): boolean {
  return req.headers['x-interaction-type'] !== undefined || req.headers['x-initiator'] !== undefined;
}

function isOpenCode(req: FakeRequest): boolean {
  const ua = req.headers['user-agent'];
  return (typeof ua === 'string' && ua.includes('opencode')) || req.headers['x-session-id'] !== undefined;
}

/** The harness's own shell tool with its argument shape. */
export function shellCall(req: FakeRequest, command: string): ToolCall {
  if (req.protocol === 'anthropic-messages') return { name: 'Bash', input: { command, description: 'fake tool call' } };
  if (req.protocol === 'responses') return { name: 'exec_command', input: { cmd: command, yield_time_ms: 5000 } };
  if (req.protocol === 'gemini') return { name: 'run_shell_command', input: { command, description: 'fake tool call' } };
  // OpenCode's and Copilot's bash tools take a description; pi and omp take only the command.
  return { name: 'bash', input: isOpenCode(req) || isCopilot(req) ? { command, description: 'fake tool call' } : { command } };
}

function namedCall(req: FakeRequest, name: string, input: object): ToolCall {
  const slash = name.indexOf('/');
  if (slash < 0) return { name, input };
  const server = name.slice(0, slash);
  const tool = name.slice(slash + 1);
  if (req.protocol === 'anthropic-messages') return { name: `mcp__${server}__${tool}`, input };
  if (req.protocol === 'responses') return { name: tool, namespace: `mcp__${server}`, input };
  if (req.protocol === 'gemini') return { name: `mcp_${server}_${tool}`, input };
  if (isCopilot(req)) return { name: `${server}-${tool}`, input };
  return { name: `${server}_${tool}`, input };
}

function parseArgs(raw: string | undefined): object {
  if (raw === undefined || raw.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'object' && v !== null ? v : {};
  } catch {
    return {};
  }
}

export function keywordHandler(options: KeywordHandlerOptions = {}): RequestHandler {
  return (req) => {
    if (endsWithToolResult(req)) return { text: options.afterToolText ?? 'tool done' };
    const text = lastUserText(req);
    const reply: Reply = {};
    const slow = /\bSLOW(\d+)?\b/.exec(text);
    if (slow) {
      reply.delayMs = slow[1] !== undefined ? Number(slow[1]) * 1000 : 20_000;
      reply.text = 'slow reply from fake model';
    }
    const toolcall = /TOOLCALL:\s*(\S+)(?:[ \t]+(.+))?/.exec(text);
    const runcmd = /RUNCMD:[ \t]*(.+)/.exec(text);
    if (toolcall?.[1] !== undefined) reply.toolCalls = [namedCall(req, toolcall[1], parseArgs(toolcall[2]))];
    else if (runcmd?.[1] !== undefined) reply.toolCalls = [shellCall(req, runcmd[1].trim())];
    else if (/\bTOOL_BASH\b/.test(text)) reply.toolCalls = [shellCall(req, options.bashCommand ?? 'echo hello-from-tool')];
    return reply.toolCalls || reply.delayMs !== undefined ? reply : undefined;
  };
}
