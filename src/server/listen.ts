/**
 * The thin Node adapter: serve the app on node:http at 127.0.0.1, track every socket, and close
 * once — ending SSE streams and destroying sockets so no client can hold shutdown open.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
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
  // A connection that never finishes its headers or its body is answered 408 and closed; without
  // these bounds a client could hold sockets (and request buffers) open for as long as it likes.
  const server = createServer(
    {
      headersTimeout: opts.headersTimeoutMs ?? 10_000,
      requestTimeout: opts.requestTimeoutMs ?? 30_000,
      connectionsCheckingInterval: opts.checkIntervalMs ?? 1000,
    },
    getRequestListener(app.fetch),
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
