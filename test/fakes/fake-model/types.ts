/** Shapes shared by the fake model server's modules and its users. */
import type { IncomingHttpHeaders } from 'node:http';

/** Wire protocol a request arrived on, decided by method and path. */
export type Protocol = 'anthropic-messages' | 'anthropic-count-tokens' | 'chat-completions' | 'responses' | 'gemini' | 'gemini-count-tokens' | 'models' | 'unknown';

/**
 * Side calls the CLIs make besides the user's turn; answered without the queue. `gemini-json`: Gemini
 * CLI's structured side calls (model router, next speaker); answered by filling their schema unless overridden.
 */
export type SideCallKind = 'claude-job-state' | 'claude-label' | 'codex-title' | 'opencode-title' | 'omp-title' | 'gemini-json' | 'gemini-summary';

/**
 * Token usage reported in a reply. `input` is the *uncached* input; protocols that fold cache reads
 * into the prompt count (OpenAI) report `input + cacheRead` there, with `cacheRead` as cached tokens,
 * so every harness ends up recording exactly these numbers.
 */
export interface Usage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface ToolCall {
  /** Tool name as the harness offers it (`Bash`, `bash`, `exec_command`, `run_shell_command`, `<server>_<tool>`…). */
  name: string;
  /** Arguments; serialised to JSON for OpenAI protocols. */
  input: object;
  /** Responses API only: namespace of an MCP tool, e.g. `mcp__muster` (Codex namespaced calls). */
  namespace?: string;
}

export interface Reply {
  text?: string;
  toolCalls?: ToolCall[];
  /**
   * Slow reply, in ms. Streaming: the headers and the start events go out at once, then the text
   * trickles out in chunks spread over this time (the session is observably busy and can be
   * aborted mid-stream). Non-streaming and errors: held before the response.
   */
  delayMs?: number;
  /** Default: DEFAULT_USAGE. */
  usage?: Usage;
  /** Answer with this HTTP status and a protocol-shaped error body instead of a message. */
  error?: { status: number; message: string };
}

export interface FakeRequest {
  /** 1-based arrival order. */
  seq: number;
  /** ms since epoch at arrival. */
  at: number;
  method: string;
  /** Path with query string, as sent (`/v1/messages?beta=true`). */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
  protocol: Protocol;
  /** Session id from `x-claude-code-session-id`, `session-id` (Codex) or `x-session-id` (OpenCode). */
  sessionId?: string;
  /** Set when the request was recognised as a side call. */
  sideCall?: SideCallKind;
  /** Whether the client asked for a streamed reply. */
  stream: boolean;
  /** The reply chosen for it (model calls only); set before the reply is written. */
  reply?: Reply;
}

export type RequestHandler = (req: FakeRequest) => Reply | undefined;
