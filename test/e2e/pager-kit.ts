/**
 * Helpers for the pager's end-to-end tests and benchmark: a real daemon (`muster serve`), the official
 * MCP SDK client against its /mcp, a JSON API caller, and an SSE reader of /api/events.
 */
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { envFor, splitBoardUrl, startServe, waitExit } from './kit.ts';

export interface RunningDaemon {
  child: ChildProcess;
  base: string;
  token: string;
  mcpUrl: string;
  env: NodeJS.ProcessEnv;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> & { error?: { code: string; message: string } } }>;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/** Starts `muster serve` in `home` and applies `settings` (desktop notifications off by default). */
export async function startPagerDaemon(home: string, settings: Record<string, unknown> = {}): Promise<RunningDaemon> {
  const env = envFor(home);
  const s = await startServe(env);
  const { base, token } = splitBoardUrl(s.envelope.boardUrl);
  const api: RunningDaemon['api'] = async (method, path, body) => {
    const r = await fetch(`${base}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const r = await api('POST', '/settings', { notifyDesktop: false, ...settings });
  if (r.status !== 200) throw new Error(`settings refused: ${JSON.stringify(r.json)}`);
  return {
    child: s.child, base, token, mcpUrl: `${base}/mcp`, env, api,
    async stop() {
      if (s.child.exitCode !== null || s.child.signalCode !== null) return;
      s.child.kill('SIGTERM');
      await waitExit(s.child);
    },
    async kill() {
      s.child.kill('SIGKILL');
      await waitExit(s.child);
    },
  };
}

/** An official-SDK MCP client connected to the daemon (extra headers play the wrapper's part). */
export async function connectMcp(d: Pick<RunningDaemon, 'mcpUrl' | 'token'>, headers: Record<string, string> = {}, name = 'muster-e2e'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(d.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${d.token}`, ...headers } } }));
  return client;
}

export interface ToolOutcome { status: string; pageId: string; answer?: string; choice?: number | null; instruction?: string }

/** Calls a tool and returns its structured content; a tool error becomes `{ error: text }`. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>, options: { timeout?: number; onprogress?: () => void; resetTimeoutOnProgress?: boolean } = {}): Promise<ToolOutcome & { error?: string }> {
  const r = await client.callTool({ name, arguments: args }, undefined, options);
  if (r.isError) return { status: 'error', pageId: '', error: (r.content as { text: string }[])[0]?.text ?? '' };
  return r.structuredContent as unknown as ToolOutcome;
}

export interface SseReader {
  /** Resolves with the data of the next event of `type` matching `pred`, or rejects after `timeoutMs`. */
  next(type: string, pred?: (data: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<{ data: Record<string, unknown>; at: number }>;
  close(): void;
}

/** Reads /api/events; resolves once the stream's hello has arrived (so nothing published after is missed). */
export async function openSse(d: Pick<RunningDaemon, 'base' | 'token'>): Promise<SseReader> {
  const ctrl = new AbortController();
  const res = await fetch(`${d.base}/api/events`, { headers: { authorization: `Bearer ${d.token}` }, signal: ctrl.signal });
  const reader = res.body!.getReader();
  const seen: { type: string; data: Record<string, unknown>; at: number }[] = [];
  const waiters = new Set<() => void>();
  let buf = '';
  let hello!: () => void;
  const helloed = new Promise<void>((r) => (hello = r));
  void (async () => {
    const dec = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const type = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!type || data === undefined) continue;
        if (type === 'daemon.hello') hello();
        seen.push({ type, data: JSON.parse(data) as Record<string, unknown>, at: performance.now() });
        for (const w of [...waiters]) w();
      }
    }
  })();
  await helloed;
  return {
    next(type, pred = () => true, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const idx = seen.findIndex((e) => e.type === type && pred(e.data));
          if (idx < 0) return;
          const [e] = seen.splice(idx, 1);
          waiters.delete(check);
          clearTimeout(t);
          resolve({ data: e!.data, at: e!.at });
        };
        const t = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${type} event within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => ctrl.abort(),
  };
}
