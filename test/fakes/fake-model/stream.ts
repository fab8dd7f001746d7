/**
 * Writing a reply on the wire: SSE framing, paced text chunks for slow replies, JSON bodies, and
 * unique ids. Every wait is abortable: it ends when the client goes away or the server closes, so
 * close() never waits on a slow reply.
 */
import type { ServerResponse } from 'node:http';

export interface ReplyContext {
  res: ServerResponse;
  /** Aborted when the server closes or the client disconnects. */
  signal: AbortSignal;
  /** Unique id with a prefix, e.g. `msg_fake…`; the CLIs store these in transcripts. */
  id(prefix: string): string;
}

/** Sleeps `ms`; resolves false early if `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function sendJson(ctx: ReplyContext, status: number, body: unknown): void {
  if (ctx.res.headersSent || ctx.res.destroyed) return;
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  ctx.res.end(text);
}

export function startSse(ctx: ReplyContext): void {
  ctx.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  ctx.res.flushHeaders();
}

/** One SSE event; `name` undefined gives a bare `data:` line (Chat Completions). */
export function sseEvent(ctx: ReplyContext, name: string | undefined, data: unknown): void {
  if (ctx.res.destroyed) return;
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  ctx.res.write(`${name === undefined ? '' : `event: ${name}\n`}data: ${payload}\n\n`);
}

/**
 * Splits `text` into chunks to stream. Fast replies send one chunk; a slow reply (`delayMs` > 0)
 * sends up to 20 chunks so the CLI shows partial output while the turn is still busy.
 */
export function chunkText(text: string, delayMs: number): string[] {
  if (text === '') return [];
  const count = delayMs > 0 ? Math.min(20, text.length) : 1;
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * Streams text chunks through `emit`, spreading `delayMs` evenly before them (or holding it once
 * when there is no text, e.g. a slow tool call). Resolves false if aborted.
 */
export async function pacedText(ctx: ReplyContext, text: string, delayMs: number, emit: (chunk: string) => void): Promise<boolean> {
  const chunks = chunkText(text, delayMs);
  if (chunks.length === 0) return sleep(delayMs, ctx.signal);
  const step = delayMs / chunks.length;
  for (const chunk of chunks) {
    if (!(await sleep(step, ctx.signal))) return false;
    emit(chunk);
  }
  return true;
}

export function createIdSource(): (prefix: string) => string {
  let n = 0;
  const stamp = Date.now().toString(36);
  return (prefix) => `${prefix}${stamp}${(++n).toString().padStart(4, '0')}`;
}
