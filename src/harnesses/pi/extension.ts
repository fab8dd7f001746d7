/**
 * Muster's pi/omp extension, built twice into self-contained modules (dist/status-assets/,
 * MUSTER_HARNESS = 'pi' or 'omp' baked in: an env var would leak into agents started by agents). The
 * wrapper loads it with `-e`; `hooks install` puts it in the harness's extensions/ folder.
 *
 * It reports the session's events to the daemon (status), registers `search_sessions` (POST
 * /api/search, the REST twin of the MCP tool), and registers the pager's four tools,
 * which call the daemon's REST twin of the MCP tools with the session's identity headers (pi has no
 * MCP; omp reads MCP only from config files the wrapper must not edit). Tool names, descriptions and
 * argument schemas are the MCP tools' own (src/pager/tool-schemas.ts, turned into JSON Schema at build
 * time as MUSTER_PAGER_TOOLS); pi and omp accept plain JSON-Schema `parameters` (observed).
 */
import { findDaemon, postJson, reportEvent, type PostResult } from '../status-assets/daemon-link.ts';
import { listenInbox, turnEndDecision, type InboxListener } from '../status-assets/turn-end.ts';
import { NEXT_STEP } from '../../pager/tool-texts.ts';
import type { PagerToolName, PagerToolSpec } from '../../pager/tool-schemas.ts';
import type { SearchToolSpec } from '../../search/tool-schema.ts';

declare const MUSTER_HARNESS: string;
declare const MUSTER_PAGER_TOOLS: PagerToolSpec[];
declare const MUSTER_SEARCH_TOOL: SearchToolSpec;

/** What pi hands an event handler or a tool as `ctx` (the parts Muster reads). */
interface ExtensionContext {
  cwd?: string;
  /** False in print and JSON mode; true in the interactive TUI and RPC mode. */
  hasUI?: boolean;
  sessionManager?: { getSessionId(): string | undefined };
}

/** pi's `agent_end` event: the prompt's messages; omp adds `willContinue` when queued input follows at once. */
interface AgentEnd {
  messages?: { role?: string; content?: { type?: string; text?: string }[] }[];
  willContinue?: boolean;
}

interface ToolResult {
  content: { type: 'text'; text: string }[];
  details: unknown;
  isError?: boolean;
}

interface PiApi {
  on(event: string, handler: (event: unknown, ctx: ExtensionContext) => Promise<void> | void): void;
  /** Sends a user message as if typed; `followUp` waits until the agent has no more tool calls. */
  sendUserMessage(text: string, options?: { deliverAs?: 'steer' | 'followUp' }): void;
  registerTool?(tool: {
    name: string;
    label: string;
    description: string;
    parameters: Record<string, unknown>;
    execute(id: string, params: Record<string, unknown>, signal: AbortSignal | undefined, onUpdate: unknown, ctx: ExtensionContext): Promise<ToolResult>;
  }): void;
}

function identity(ctx: ExtensionContext | undefined): { sessionId: string | undefined; cwd: string | undefined } {
  let sessionId: string | undefined;
  try {
    sessionId = ctx?.sessionManager?.getSessionId();
  } catch {
    // An extension API that changed shape: report without the id.
  }
  return { sessionId, cwd: ctx?.cwd };
}

function callPager(path: string, body: unknown, ctx: ExtensionContext, timeoutMs: number, signal?: AbortSignal): Promise<PostResult> {
  const link = findDaemon();
  if (!link) return Promise.resolve({ status: 0, json: null, error: 'Muster is not running' });
  const { sessionId, cwd } = identity(ctx);
  const headers: Record<string, string> = { 'x-muster-harness': MUSTER_HARNESS };
  if (sessionId) headers['x-muster-session-id'] = sessionId;
  if (typeof cwd === 'string') headers['x-muster-cwd'] = cwd;
  if (process.env.MUSTER_LAUNCH_ID) headers['x-muster-launch-id'] = process.env.MUSTER_LAUNCH_ID;
  return postJson(link, path, body, timeoutMs, headers, signal);
}

type Envelope = { ok?: boolean; error?: { code?: string; message?: string }; page?: { id: string; status: string }; [k: string]: unknown };

const toolResult = (structured: unknown): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(structured) }], details: structured });

function failure(r: PostResult): ToolResult {
  const e = (r.json as Envelope | null)?.error ?? { code: 'daemon_unreachable', message: r.error ?? 'the pager failed' };
  return { content: [{ type: 'text', text: `${e.code ?? 'internal'}: ${e.message ?? 'the pager failed'}` }], details: { error: e }, isError: true };
}

function instructionFor(o: { status: string; pageId: string }): string {
  if (o.status === 'answered') return NEXT_STEP.answered;
  if (o.status === 'pending') return NEXT_STEP.pending.replace('{pageId}', o.pageId);
  return NEXT_STEP.closed.replace('{status}', o.status);
}

/** The daemon bounds one wait (askWaitSeconds, about 45 s); this only guards against a daemon that hangs. */
const WAIT_GUARD_MS = 10 * 60 * 1000;
/** Bound of the short pager calls (ask, notify, cancel), ms. */
const SHORT_MS = 10_000;

async function waitFor(pageId: string, seconds: unknown, ctx: ExtensionContext, signal?: AbortSignal): Promise<ToolResult> {
  const body = typeof seconds === 'number' ? { seconds } : {};
  const r = await callPager(`/pages/${encodeURIComponent(pageId)}/wait`, body, ctx, WAIT_GUARD_MS, signal);
  const j = r.json as Envelope | null;
  if (j?.ok !== true) return failure(r);
  const { ok: _ok, ...outcome } = j;
  const o = outcome as { status: string; pageId: string };
  return toolResult({ ...outcome, instruction: instructionFor(o) });
}

/** One short pager call: the tool's result from the daemon's envelope, or its error as a tool error. */
async function short(path: string, body: unknown, ctx: ExtensionContext, signal: AbortSignal | undefined, onOk: (j: Envelope) => ToolResult | Promise<ToolResult>): Promise<ToolResult> {
  const r = await callPager(path, body, ctx, SHORT_MS, signal);
  const j = r.json as Envelope | null;
  return j?.ok === true ? onOk(j) : failure(r);
}

const RUN: Record<PagerToolName, (p: Record<string, unknown>, ctx: ExtensionContext, signal?: AbortSignal) => Promise<ToolResult>> = {
  ask_operator: (p, ctx, signal) => short('/pages/ask', p, ctx, signal, (j) => waitFor(String(j.page?.id), undefined, ctx, signal)),
  await_answer: (p, ctx, signal) => waitFor(String(p.pageId), p.waitSeconds, ctx, signal),
  notify_operator: (p, ctx, signal) => short('/pages/notify', p, ctx, signal, (j) => toolResult({ status: 'sent', pageId: j.page?.id })),
  cancel_page: (p, ctx, signal) => short(`/pages/${encodeURIComponent(String(p.pageId))}/cancel`, {}, ctx, signal, (j) => toolResult({ status: j.page?.status, pageId: j.page?.id })),
};

function registerPagerTools(pi: PiApi): void {
  if (typeof pi.registerTool !== 'function') return;
  for (const spec of MUSTER_PAGER_TOOLS) {
    const run = RUN[spec.name];
    pi.registerTool({ ...spec, execute: (_id, params, signal, _onUpdate, ctx) => run(params, ctx, signal) });
  }
  pi.registerTool({
    ...MUSTER_SEARCH_TOOL,
    execute: (_id, params, signal, _onUpdate, ctx) => short('/search', { query: params.query, limit: params.limit }, ctx, signal, (j) => toolResult({ results: j.results })),
  });
}

/** The prompt's final assistant text: the last assistant message's text parts (null when it only called tools). */
function finalText(event: AgentEnd): string | null {
  const last = [...(event.messages ?? [])].reverse().find((m) => m.role === 'assistant');
  const text = (last?.content ?? []).filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text).join('').trim();
  return text || null;
}

export default function muster(pi: PiApi): void {
  // An auditor run of this harness (MUSTER_AUDITOR) is not a session to report or drive.
  if (process.env.MUSTER_AUDITOR) return;
  registerPagerTools(pi);
  let inbox: InboxListener | null = null;
  /** Set when the operator typed since the last turn ended: a goal's continuation then stands aside. */
  let typed = false;
  pi.on('input', async (event) => {
    if ((event as { source?: string }).source === 'interactive') typed = true;
  });
  pi.on('session_start', async (_event, ctx) => {
    void reportEvent(MUSTER_HARNESS, 'session_start', identity(ctx));
    // Prompts from the daemon (a goal resumed by a page's answer, a prompt sent from the board) arrive
    // through the inbox; only a process with a UI keeps running long enough to listen.
    if (ctx.hasUI && !inbox) {
      inbox = listenInbox(MUSTER_HARNESS, () => {
        const id = identity(ctx).sessionId;
        return id ? [id] : [];
      }, (_id, text) => pi.sendUserMessage(text, { deliverAs: 'followUp' }));
    }
  });
  pi.on('agent_start', async (_event, ctx) => {
    void reportEvent(MUSTER_HARNESS, 'agent_start', identity(ctx));
  });
  // The turn end: reported with its final text; when a goal drives the session, the handler waits for the
  // audit (pi holds the session busy meanwhile, as Claude does during a Stop hook) and queues the
  // continuation as the next user message — unless the operator typed meanwhile.
  pi.on('agent_end', async (event, ctx) => {
    const e = event as AgentEnd;
    typed = false;
    if (e.willContinue === true || !ctx.hasUI) {
      void reportEvent(MUSTER_HARNESS, 'agent_end', identity(ctx));
      return;
    }
    const next = await turnEndDecision(MUSTER_HARNESS, 'agent_end', identity(ctx), finalText(e));
    if (next !== null && !typed) pi.sendUserMessage(next, { deliverAs: 'followUp' });
  });
  // The process is leaving: wait (at most 250 ms) so the post is not cut off.
  pi.on('session_shutdown', async (_event, ctx) => {
    inbox?.stop();
    await reportEvent(MUSTER_HARNESS, 'session_shutdown', identity(ctx), 250);
  });
}
