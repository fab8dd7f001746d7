/**
 * The pager's MCP tools, registered on one McpServer per MCP session. Descriptions are written for
 * models; every result carries structured content (and the same JSON as text for clients that only
 * read text). Failures are tool errors (`isError`) naming a stable code, never protocol crashes.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { isMusterError } from '../errors/index.ts';
import type { Caller, Pager, WaitOutcome } from './pager.ts';
import { LIMITS } from './validate.ts';
import { ASK_TEXT as ASK, AWAIT_TEXT as AWAIT, CANCEL_TEXT as CANCEL, NEXT_STEP, NOTIFY_TEXT as NOTIFY } from './tool-texts.ts';
import { NOTICE_LEVELS, URGENCIES } from './types.ts';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface PagerToolsOptions {
  pager: Pager;
  /** Attributes the call (headers, Codex `_meta.threadId`, cwd). */
  caller(extra: ToolExtra): Promise<Caller>;
  /** Progress notification interval while waiting, ms. Default: 5000. */
  progressMs?: number;
  log?(line: string): void;
}

const outcomeShape = {
  status: z.enum(['answered', 'pending', 'cancelled', 'expired', 'dismissed']),
  pageId: z.string(),
  answer: z.string().optional().describe("The operator's answer (free text, or the text of the chosen option)."),
  choice: z.number().int().nullable().optional().describe('0-based index of the chosen option, null for free text.'),
  instruction: z.string().describe('What to do next.'),
};

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
      title: 'Ask the operator',
      description: ASK,
      inputSchema: {
        question: z.string().min(1).max(LIMITS.question).describe('The question, in plain text, self-contained (the operator may not see your conversation).'),
        choices: z.array(z.string().min(1).max(LIMITS.choice)).min(2).max(LIMITS.choices).optional().describe('Options to pick from, when the answer is one of a few.'),
        urgency: z.enum(URGENCIES).optional().describe('How soon you need it. Default: normal.'),
        context: z.string().max(LIMITS.context).optional().describe('Background the operator needs to answer (what you tried, what is at stake).'),
      },
      outputSchema: outcomeShape,
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
      title: 'Wait for the operator’s answer',
      description: AWAIT,
      inputSchema: {
        pageId: z.string().max(64).describe('The pageId returned by ask_operator.'),
        waitSeconds: z.number().int().min(0).max(600).optional().describe('How long to wait at most (capped by the daemon). Default: the daemon’s bound (45 s).'),
      },
      outputSchema: outcomeShape,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (args, extra) => guarded(() => waitWithProgress(args.pageId, args.waitSeconds, extra)),
  );

  server.registerTool(
    'notify_operator',
    {
      title: 'Notify the operator',
      description: NOTIFY,
      inputSchema: {
        message: z.string().min(1).max(LIMITS.question).describe('What happened, in plain text.'),
        level: z.enum(NOTICE_LEVELS).describe('info, success, warning or error.'),
      },
      outputSchema: { status: z.literal('sent'), pageId: z.string() },
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
      title: 'Cancel a question',
      description: CANCEL,
      inputSchema: { pageId: z.string().max(64).describe('The pageId returned by ask_operator.') },
      outputSchema: { status: z.literal('cancelled'), pageId: z.string() },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    (args) =>
      guarded(async () => {
        const page = await pager.cancel(args.pageId);
        return result({ status: 'cancelled', pageId: page.id });
      }),
  );
}
