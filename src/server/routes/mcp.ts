/**
 * /mcp — the Streamable HTTP MCP endpoint (official SDK, Web-standard transport), stateful: one
 * McpServer + transport per MCP session, keyed by the `mcp-session-id` header. The app's guards have
 * already checked the Bearer token and the loopback Host (the SDK checks neither by default).
 * Idle sessions are closed after `idleMs`; every session is closed on shutdown. The SDK itself is loaded
 * on the first /mcp request (an agent's initialize), not at daemon start: see mcp-sdk.ts. A daemon no
 * agent calls never spends the ~270 ms of CPU it costs.
 */
import { sessionOfToolMeta } from '../../harnesses/ports.ts';
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { resolveAttribution, type Caller, type Pager, type SessionLookup, type ToolExtra } from '../../pager/index.ts';
import { readLimited } from '../body.ts';
import type { Context } from 'hono';
import type { App, RouteModule } from '../env.ts';
import type { SearchService } from '../../search/index.ts';

export interface McpEndpointOptions {
  pager: Pager;
  sessions: SessionLookup;
  /** Search over earlier sessions (`search_sessions`); absent: the tool is not offered. */
  search?: SearchService;
  version: string;
  /** Progress notification interval while a tool waits, ms. Default: 5000. */
  progressMs?: number;
  /** MCP sessions unused this long are closed, ms. Default: 24 h. */
  idleMs?: number;
  /** Most MCP sessions kept; the least recently used is closed beyond it. Default: 1000. */
  maxSessions?: number;
  log?(line: string): void;
}

export interface McpEndpoint {
  mount: RouteModule;
  /** Open MCP sessions. */
  count(): number;
  /** Closes every MCP session. Idempotent. */
  close(): Promise<void>;
}

type Sdk = typeof import('./mcp-sdk.ts');

interface Entry {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  lastUsed: number;
  busy: number;
  /** The client's first file:// root, asked once per session (Claude Code offers roots). */
  rootCwd?: Promise<string | undefined>;
}

/** 1 MiB: more than any page's fields allow, far less than the SDK's 4 MiB default. */
const MAX_BODY = 1024 * 1024;

const INSTRUCTIONS = 'Muster pages the human operator. ask_operator for a question that blocks you (then await_answer while it is pending), notify_operator for news that needs no reply, cancel_page to withdraw a question. search_sessions finds what earlier agent sessions on this machine said and did.';

function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });
}

const header = (extra: ToolExtra, name: string): string | undefined => {
  const v = extra.requestInfo?.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export function createMcpEndpoint(opts: McpEndpointOptions): McpEndpoint {
  const log = opts.log ?? (() => {});
  const entries = new Map<string, Entry>();
  let closed = false;
  let sdkLoading: Promise<Sdk> | undefined;
  const loadSdk = (): Promise<Sdk> => (sdkLoading ??= import('./mcp-sdk.ts'));

  async function rootCwd(sdk: Sdk, entry: Entry, extra: ToolExtra): Promise<string | undefined> {
    if (!entry.server.server.getClientCapabilities()?.roots) return undefined;
    entry.rootCwd ??= extra
      .sendRequest({ method: 'roots/list' }, sdk.ListRootsResultSchema, { timeout: 1500 })
      .then((r) => {
        const uri = r.roots.find((x) => x.uri.startsWith('file://'))?.uri;
        return uri ? decodeURIComponent(new URL(uri).pathname) : undefined;
      })
      .catch(() => undefined);
    return entry.rootCwd;
  }

  async function callerFor(sdk: Sdk, entry: Entry, sessionId: string, extra: ToolExtra): Promise<Caller> {
    const hints = {
      sessionId: header(extra, 'x-muster-session-id'),
      harness: header(extra, 'x-muster-harness'),
      launchId: header(extra, 'x-muster-launch-id'),
      cwd: header(extra, 'x-muster-cwd'),
      toolMeta: extra._meta as Record<string, unknown> | undefined,
      clientName: entry.server.server.getClientVersion()?.name,
      rootCwd: undefined as string | undefined,
    };
    // Roots cost a round trip: only when nothing stronger identifies the caller.
    if (!hints.sessionId && !sessionOfToolMeta(hints.toolMeta) && !hints.cwd) hints.rootCwd = await rootCwd(sdk, entry, extra);
    return { attribution: resolveAttribution(hints, opts.sessions), fallbackKey: `mcp:${sessionId}` };
  }

  async function drop(id: string): Promise<void> {
    const e = entries.get(id);
    if (!e) return;
    entries.delete(id);
    await e.transport.close().catch(() => undefined);
    await e.server.close().catch(() => undefined);
  }

  function evict(now: number): void {
    for (const [id, e] of entries) if (e.busy === 0 && now - e.lastUsed > (opts.idleMs ?? 86_400_000)) void drop(id);
    const max = opts.maxSessions ?? 1000;
    if (entries.size < max) return;
    const idle = [...entries].filter(([, e]) => e.busy === 0).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [id] of idle.slice(0, entries.size - max + 1)) void drop(id);
  }

  async function open(sdk: Sdk): Promise<Entry> {
    const entry = {} as Entry;
    // The SDK queues what it writes to its SSE streams without a bound (ReadableStream enqueue), but
    // nothing broadcasts over them: a tool call's stream carries its result and a progress note every
    // progressMs for at most askWaitSeconds (≤ 600 s, a few KiB), the standalone GET stream only a
    // keep-alive comment every 15 s. A client that stops reading cannot make either grow like /api/events.
    const transport = new sdk.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_BODY,
      onsessioninitialized: (id) => void entries.set(id, entry),
      onsessionclosed: (id) => void drop(id),
    });
    const server = new sdk.McpServer({ name: 'muster', version: opts.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    Object.assign(entry, { transport, server, lastUsed: Date.now(), busy: 0 });
    sdk.registerPagerTools(server, {
      pager: opts.pager,
      caller: (extra) => callerFor(sdk, entry, transport.sessionId ?? 'none', extra),
      progressMs: opts.progressMs,
      log,
    });
    if (opts.search) sdk.registerSearchTool(server, { search: opts.search, log });
    transport.onclose = () => {
      if (transport.sessionId) entries.delete(transport.sessionId);
    };
    await server.connect(transport);
    return entry;
  }

  async function handle(c: Context): Promise<Response> {
    const req = c.req.raw;
    if (closed) return rpcError(503, -32000, 'Muster is shutting down');
    const now = Date.now();
    const sid = req.headers.get('mcp-session-id');
    if (sid !== null) {
      const entry = entries.get(sid);
      // 404 tells a conforming client to start a new session (e.g. after a daemon restart).
      if (!entry) return rpcError(404, -32001, 'Session not found; start a new MCP session (initialize)');
      entry.lastUsed = now;
      entry.busy++;
      try {
        return await entry.transport.handleRequest(req);
      } finally {
        entry.busy--;
        entry.lastUsed = Date.now();
      }
    }
    if (req.method !== 'POST') return rpcError(400, -32000, 'Bad Request: no MCP session; POST an initialize request first');
    // Read the body ourselves so nothing but an initialize ever creates a server.
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(await readLimited(c, MAX_BODY)));
    } catch (e) {
      return (e as { code?: string }).code === 'payload_too_large' ? rpcError(413, -32000, 'request body too large') : rpcError(400, -32700, 'Parse error');
    }
    const messages = Array.isArray(body) ? body : [body];
    const sdk = await loadSdk();
    if (closed) return rpcError(503, -32000, 'Muster is shutting down');
    if (!messages.some((m) => sdk.isInitializeRequest(m))) return rpcError(400, -32000, 'Bad Request: no MCP session; POST an initialize request first');
    evict(now);
    const entry = await open(sdk);
    return entry.transport.handleRequest(req, { parsedBody: body });
  }

  return {
    mount: (app: App) => {
      app.all('/mcp', (c) => handle(c));
    },
    count: () => entries.size,
    async close() {
      closed = true;
      await Promise.all([...entries.keys()].map((id) => drop(id)));
    },
  };
}
