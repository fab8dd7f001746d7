/**
 * A Server-Sent Events client on node:http for GET /api/events: parses `id:`/`event:`/`data:`
 * blocks, remembers the last id and reconnects with `Last-Event-ID` (the daemon replays what was
 * missed, or says `resync: true` in its hello when it cannot). Reconnects back off from 250 ms to
 * 5 s. The socket is unref'd: an open event stream never keeps the process alive by itself.
 */
import { request, type ClientRequest } from 'node:http';

export interface SseMessage {
  id: string | null;
  type: string;
  data: unknown;
}

export interface SseTarget {
  url: string;
  token: string | null;
}

export interface SseClientOptions {
  /** Where to connect; called before every (re)connect, so a restarted daemon on a new port is found. */
  target(): Promise<SseTarget> | SseTarget;
  onMessage(message: SseMessage): void;
  /** 'open' once the response headers arrive, 'closed' when the stream drops (a retry follows). */
  onState?(state: 'open' | 'closed', error?: Error): void;
  /** First retry delay, ms. Default: 250. */
  retryMs?: number;
  /** Longest retry delay, ms. Default: 5000. */
  maxRetryMs?: number;
}

export interface SseClient {
  lastEventId(): string | null;
  close(): void;
}

/** Splits a stream of text into SSE messages; feed chunks, get complete messages back. */
export function createSseParser(): (chunk: string) => SseMessage[] {
  let buf = '';
  return (chunk) => {
    buf += chunk;
    const out: SseMessage[] = [];
    for (let m = /\r?\n\r?\n/.exec(buf); m; m = /\r?\n\r?\n/.exec(buf)) {
      const block = buf.slice(0, m.index);
      buf = buf.slice(m.index + m[0].length);
      let id: string | null = null;
      let type = 'message';
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'event') type = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length === 0) continue;
      let parsed: unknown = data.join('\n');
      try {
        parsed = JSON.parse(parsed as string);
      } catch {
        // Not JSON: hand over the raw text.
      }
      out.push({ id, type, data: parsed });
    }
    return out;
  };
}

export function createSseClient(opts: SseClientOptions): SseClient {
  const base = opts.retryMs ?? 250;
  const max = opts.maxRetryMs ?? 5000;
  let last: string | null = null;
  let closed = false;
  let delay = base;
  let req: ClientRequest | null = null;
  let timer: NodeJS.Timeout | null = null;

  const retry = (error?: Error) => {
    req = null;
    if (closed) return;
    opts.onState?.('closed', error);
    timer = setTimeout(connect, delay);
    timer.unref();
    delay = Math.min(max, delay * 2);
  };

  async function connect(): Promise<void> {
    timer = null;
    let target: SseTarget;
    try {
      target = await opts.target();
    } catch (e) {
      return retry(e as Error);
    }
    if (closed) return;
    const u = new URL(target.url);
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (target.token) headers.authorization = `Bearer ${target.token}`;
    if (last !== null) headers['last-event-id'] = last;
    let done = false;
    const fail = (e?: Error) => {
      if (done) return;
      done = true;
      retry(e);
    };
    const r = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, headers, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return fail(new Error(`events answered ${res.statusCode}`));
      }
      delay = base;
      opts.onState?.('open');
      const parse = createSseParser();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        for (const m of parse(chunk)) {
          if (m.id !== null) last = m.id;
          opts.onMessage(m);
        }
      });
      res.on('end', () => fail());
      res.on('error', (e) => fail(e));
    });
    r.on('socket', (s) => s.unref());
    r.on('error', (e) => fail(e));
    r.end();
    req = r;
  }

  void connect();
  return {
    lastEventId: () => last,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      req?.destroy();
    },
  };
}
