/**
 * The pager's MCP tools, registered on one McpServer per MCP session. Descriptions are written for
 * models; every result carries structured content (and the same JSON as text for clients that only
 * read text). Failures are tool errors (`isError`) naming a stable code, never protocol crashes.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { isMusterError } from '../errors/index.ts';
import type { Caller, Pager, WaitOutcome } from './pager.ts';
import { NEXT_STEP } from './tool-texts.ts';
import { PAGER_TOOLS } from './tool-schemas.ts';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface PagerToolsOptions {
  pager: Pager;
  /** Attributes the call (headers, Codex `_meta.threadId`, cwd). */
  caller(extra: ToolExtra): Promise<Caller>;
  /** Progress notification interval while waiting, ms. Default: 5000. */
  progressMs?: number;
  log?(line: string): void;
}

function result(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

function instructionFor(o: WaitOutcome): string {
  if (o.status === 'answered') return NEXT_STEP.answered;
  if (o.status === 'pending') return NEXT_STEP.pending.replace('{pageId}', o.pageId);
  return NEXT_STEP.closed.replace('{status}', o.status);
}

/** Turns a failure into a tool error with its stable code; unknown errors stay generic (logged). */
function toolError(e: unknown, log: (l: string) => void): CallToolResult {
  if (isMusterError(e)) return { isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}` }] };
  log(`[pager] tool failed: ${(e as Error)?.stack ?? String(e)}`);
  return { isError: true, content: [{ type: 'text', text: 'internal: the pager failed; see the daemon log' }] };
}

export function registerPagerTools(server: McpServer, opts: PagerToolsOptions): void {
  const { pager } = opts;
  const log = opts.log ?? (() => {});
  const guarded = async (fn: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      return await fn();
    } catch (e) {
      return toolError(e, log);
    }
  };

  /** The bounded wait, sending progress notifications when the client asked for them (resets their timeouts). */
  async function waitWithProgress(pageId: string, waitSeconds: number | undefined, extra: ToolExtra): Promise<CallToolResult> {
    const token = extra._meta?.progressToken;
    const started = Date.now();
    let beat: ReturnType<typeof setInterval> | undefined;
    if (token !== undefined) {
      beat = setInterval(() => {
        const progress = Math.round((Date.now() - started) / 1000);
        void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message: 'waiting for the operator' } }).catch(() => undefined);
      }, opts.progressMs ?? 5000);
      beat.unref?.();
    }
    try {
      const o = await pager.wait(pageId, { waitMs: waitSeconds === undefined ? undefined : waitSeconds * 1000, signal: extra.signal });
      return result({ ...o, instruction: instructionFor(o) });
    } finally {
      clearInterval(beat);
    }
  }

  server.registerTool(
    'ask_operator',
    {
      title: PAGER_TOOLS.ask_operator.title,
      description: PAGER_TOOLS.ask_operator.description,
      inputSchema: PAGER_TOOLS.ask_operator.input,
      outputSchema: PAGER_TOOLS.ask_operator.output,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        // Store first: the page exists before any waiting starts.
        const page = await pager.ask(args, await opts.caller(extra));
        return waitWithProgress(page.id, undefined, extra);
      }),
  );

  server.registerTool(
    'await_answer',
    {
      title: PAGER_TOOLS.await_answer.title,
      description: PAGER_TOOLS.await_answer.description,
      inputSchema: PAGER_TOOLS.await_answer.input,
      outputSchema: PAGER_TOOLS.await_answer.output,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (args, extra) => guarded(() => waitWithProgress(args.pageId, args.waitSeconds, extra)),
  );

  server.registerTool(
    'notify_operator',
    {
      title: PAGER_TOOLS.notify_operator.title,
      description: PAGER_TOOLS.notify_operator.description,
      inputSchema: PAGER_TOOLS.notify_operator.input,
      outputSchema: PAGER_TOOLS.notify_operator.output,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        const page = await pager.notify(args, await opts.caller(extra));
        return result({ status: 'sent', pageId: page.id });
      }),
  );

  server.registerTool(
    'cancel_page',
    {
      title: PAGER_TOOLS.cancel_page.title,
      description: PAGER_TOOLS.cancel_page.description,
      inputSchema: PAGER_TOOLS.cancel_page.input,
      outputSchema: PAGER_TOOLS.cancel_page.output,
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    (args) =>
      guarded(async () => {
        const page = await pager.cancel(args.pageId);
        return result({ status: 'cancelled', pageId: page.id });
      }),
  );
}
