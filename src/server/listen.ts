/**
 * The thin Node adapter: serve the app on node:http at 127.0.0.1, track every socket, and close
 * once — ending SSE streams and destroying sockets so no client can hold shutdown open.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { toErrorEnvelope } from '../errors/index.ts';
import type { App } from './env.ts';

export interface Listener {
  port: number;
  host: string;
  close(): Promise<void>;
}

export interface ListenOptions {
  host?: string;
  /** Port to try first; 0 picks a free one. */
  port: number;
  /** When the preferred port is taken, try the next ones up to this many. Default: 20 (0 with port 0). */
  fallbackPorts?: number;
  /** Called before sockets are destroyed (ends SSE streams cleanly). */
  beforeClose?(): void;
  /** Time a client has to send a request's headers, ms. Default: 10 000. */
  headersTimeoutMs?: number;
  /**
   * Time a client has to send a whole request, headers and body, ms. Default: 30 000. Node stops
   * timing a request once it is fully received, so long responses (SSE streams, MCP tool calls
   * that wait for an answer) are not cut by it.
   */
  requestTimeoutMs?: number;
  /** How often those two timeouts are checked, ms. Default: 1000 (Node's 30 s let a stalled connection live 40 s). */
  checkIntervalMs?: number;
}

/**
 * The headers every response carries (nosniff, no referrer), set on Node's response before the app
 * answers: the adapter's writeHead merges them with the app's (which win). Setting them in the app
 * after its handler (Hono's `c.header()`) rebuilt every response from a web stream, and reading one
 * detaches an ArrayBuffer, which makes V8 drop the daemon thread's optimised Buffer code (a cold
 * index's fold). Set on the response's Headers instead, they would cost a Headers object per response.
 */
function withOwnHeaders(listener: RequestListener): RequestListener {
  return (req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    return listener(req, res);
  };
}

/**
 * The app behind Node's request listener, with the adapter (@hono/node-server) loaded after the
 * server listens, not before: importing it loads undici (it reads `global.Response`), ~25 ms of a
 * start that a caller waiting for the daemon to serve would otherwise wait for. It is loaded on the
 * next turn of the event loop after listen() returns (a daemon signals it serves first), or by the
 * first request, whichever comes first; a request that comes before it is loaded waits for it.
 */
export function deferredAdapter(app: App): RequestListener & { load(): Promise<RequestListener> } {
  let ready: RequestListener | null = null;
  let loading: Promise<RequestListener> | null = null;
  const load = (): Promise<RequestListener> =>
    (loading ??= import('@hono/node-server').then(({ getRequestListener }) => (ready = getRequestListener(app.fetch))));
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (ready) {
      void ready(req, res);
      return;
    }
    load().then(
      (l) => void l(req, res),
      (e: unknown) => {
        const { status, body } = toErrorEnvelope(e);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      },
    );
  };
  return Object.assign(withOwnHeaders(listener), { load });
}

function tryListen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export async function listen(app: App, opts: ListenOptions): Promise<Listener> {
  const host = opts.host ?? '127.0.0.1';
  const adapter = deferredAdapter(app);
  // A connection that never finishes its headers or its body is answered 408 and closed; without
  // these bounds a client could hold sockets (and request buffers) open for as long as it likes.
  const server = createServer(
    {
      headersTimeout: opts.headersTimeoutMs ?? 10_000,
      requestTimeout: opts.requestTimeoutMs ?? 30_000,
      connectionsCheckingInterval: opts.checkIntervalMs ?? 1000,
    },
    adapter,
  );
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  const tries = opts.port === 0 ? 1 : 1 + (opts.fallbackPorts ?? 20);
  let port = -1;
  for (let i = 0; i < tries; i++) {
    try {
      port = await tryListen(server, host, opts.port === 0 ? 0 : opts.port + i);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || i === tries - 1) throw e;
    }
  }
  pauseChecksWhileIdle(server, sockets);
  setImmediate(() => void adapter.load().catch(() => {})); // a failure is answered to each request
  let closing: Promise<void> | undefined;
  return {
    port,
    host,
    close() {
      closing ??= new Promise<void>((resolve) => {
        try {
          opts.beforeClose?.();
        } catch {}
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        server.closeAllConnections?.();
      });
      return closing;
    },
  };
}

type CheckTimer = NodeJS.Timeout & { _onTimeout?: () => void; _idleTimeout?: number };

/**
 * Node checks the header and request timeouts of open connections on an interval that runs from
 * listen() to close(), connections or not: a wakeup a second for an idle daemon. It is stopped while
 * no connection is open and started again by the next one. Node keeps that interval under a symbol of
 * the server; a Node that does not (another version) keeps its own interval and nothing changes.
 */
function pauseChecksWhileIdle(server: Server, sockets: Set<Socket>): void {
  const key = Object.getOwnPropertySymbols(server).find((k) => k.description === 'http.server.connectionsCheckingInterval');
  const slot = server as unknown as Record<symbol, CheckTimer | undefined>;
  const first = key ? slot[key] : undefined;
  const check = first?._onTimeout;
  const ms = first?._idleTimeout;
  if (!key || !first || typeof check !== 'function' || typeof ms !== 'number' || ms <= 0) return;
  let running = true;
  const stop = (): void => {
    if (!running) return;
    clearInterval(slot[key]);
    running = false;
  };
  server.on('connection', (s: Socket) => {
    if (!running) {
      slot[key] = setInterval(check, ms).unref();
      running = true;
    }
    s.once('close', () => {
      if (sockets.size === 0 && server.listening) stop();
    });
  });
  if (sockets.size === 0) stop();
}
