/**
 * A short-lived JSON-RPC client of the Codex daemon's control socket (WebSocket over a unix socket, one
 * JSON-RPC message per frame; `initialize`, then `initialized`, then methods).
 * Muster asks (`thread/read`), interrupts (`turn/interrupt`) and starts a turn on a thread the daemon
 * already holds (`turn/start`, `muster send`); it never loads or subscribes (`thread/resume`…), because
 * a subscription keeps the thread loaded — Codex alone decides that. The connection a `turn/start`
 * came over gets the turn's notifications until it closes, which it does at once; the turn runs on.
 */
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { OP, acceptKey, createFrameDecoder, createMessageAssembler, encodeFrame } from './ws-frames.ts';

export interface AppServerClient {
  /** Sends a request and resolves with its `result`; rejects with the JSON-RPC error message or on timeout. */
  request(method: string, params: unknown): Promise<unknown>;
  /** Closes the socket at once (idempotent). */
  close(): void;
}

export interface ConnectOptions {
  /** Budget for connect + handshake + each request, ms. Default: 1500. */
  timeoutMs?: number;
  clientName?: string;
}

/** The methods Muster may call. Anything that would load or subscribe to a thread is deliberately absent. */
export const ALLOWED_METHODS = new Set(['initialize', 'thread/read', 'thread/loaded/list', 'turn/interrupt', 'turn/start']);

function handshake(sock: Socket, timeoutMs: number): Promise<Buffer> {
  const key = randomBytes(16).toString('base64');
  sock.write(`GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const timer = setTimeout(() => done(new Error('control socket handshake timed out')), timeoutMs);
    const done = (err: Error | null, rest?: Buffer): void => {
      clearTimeout(timer);
      sock.off('data', onData);
      sock.off('error', onErr);
      sock.off('close', onClose);
      if (err) reject(err); else resolve(rest ?? Buffer.alloc(0));
    };
    const onErr = (e: Error): void => done(e);
    const onClose = (): void => done(new Error('control socket closed during handshake'));
    const onData = (d: Buffer): void => {
      head = Buffer.concat([head, d]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) { if (head.length > 16384) done(new Error('bad handshake')); return; }
      const text = head.subarray(0, end).toString('latin1');
      if (!/^HTTP\/1\.1 101/.test(text)) return done(new Error(`control socket refused upgrade: ${text.split('\r\n')[0]}`));
      const accept = /\r\nsec-websocket-accept:\s*(\S+)/i.exec(text)?.[1];
      if (accept !== acceptKey(key)) return done(new Error('control socket sent a wrong Sec-WebSocket-Accept'));
      done(null, head.subarray(end + 4));
    };
    sock.on('data', onData);
    sock.on('error', onErr);
    sock.on('close', onClose);
  });
}

/** Connects, upgrades, and performs `initialize` + `initialized`. */
export async function connectAppServer(socketPath: string, options: ConnectOptions = {}): Promise<AppServerClient> {
  const timeoutMs = options.timeoutMs ?? 1500;
  // The control path is a symlink under CODEX_HOME; resolving it keeps us under the 108-byte sun_path limit.
  let target = socketPath;
  try { target = realpathSync(socketPath); } catch { /* connect reports the real error */ }
  // Kept referenced: every wait below is bounded by timeoutMs, and an unreferenced socket would let a
  // short-lived caller (a CLI) exit before the answer arrives.
  const sock = connect(target);
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => { sock.destroy(); reject(new Error('control socket connect timed out')); }, timeoutMs);
    sock.once('connect', () => { clearTimeout(t); resolve(); });
    sock.once('error', (e) => { clearTimeout(t); reject(e); });
  });
  let rest: Buffer;
  try { rest = await handshake(sock, timeoutMs); } catch (e) { sock.destroy(); throw e; }

  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  let nextId = 1;
  let closed = false;
  const decode = createFrameDecoder();
  const assemble = createMessageAssembler();
  const send = (obj: unknown): void => { if (!closed) sock.write(encodeFrame(OP.text, Buffer.from(JSON.stringify(obj)), true)); };
  const failAll = (e: Error): void => {
    for (const p of pending.values()) { clearTimeout(p.timer); p.reject(e); }
    pending.clear();
  };
  const close = (): void => {
    if (closed) return;
    closed = true;
    failAll(new Error('control socket closed'));
    sock.destroy();
  };
  const onMessage = (data: Buffer): void => {
    let msg: { id?: unknown; result?: unknown; error?: { message?: unknown } };
    try { msg = JSON.parse(data.toString('utf8')) as typeof msg; } catch { return; }
    if (typeof msg.id !== 'number') return; // notifications and server requests: not ours to answer
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.error) p.reject(new Error(String(msg.error.message ?? 'app-server error')));
    else p.resolve(msg.result);
  };
  const onData = (d: Buffer): void => {
    try {
      for (const f of decode(d)) {
        const m = assemble(f);
        if (!m) continue;
        if (m.opcode === OP.ping) sock.write(encodeFrame(OP.pong, m.data, true));
        else if (m.opcode === OP.close) close();
        else if (m.opcode === OP.text) onMessage(m.data);
      }
    } catch (e) { failAll(e as Error); close(); }
  };
  sock.on('data', onData);
  sock.on('error', (e) => { failAll(e); close(); });
  sock.on('close', close);
  if (rest.length > 0) onData(rest);

  const request = (method: string, params: unknown): Promise<unknown> => {
    if (!ALLOWED_METHODS.has(method)) return Promise.reject(new Error(`method ${method} is not allowed (it could keep a thread loaded)`));
    if (closed) return Promise.reject(new Error('control socket closed'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { pending.delete(id); reject(new Error(`${method} timed out`)); }, timeoutMs);
      pending.set(id, { resolve, reject, timer });
      send({ jsonrpc: '2.0', id, method, params });
    });
  };
  const client: AppServerClient = { request, close };
  try {
    await request('initialize', { clientInfo: { name: options.clientName ?? 'muster', version: '0.1.0' }, capabilities: { experimentalApi: true } });
    send({ jsonrpc: '2.0', method: 'initialized' });
  } catch (e) { close(); throw e; }
  return client;
}

/** Runs `fn` with a fresh connection and always closes it. */
export async function withAppServer<T>(socketPath: string, fn: (c: AppServerClient) => Promise<T>, options: ConnectOptions = {}): Promise<T> {
  const c = await connectAppServer(socketPath, options);
  try { return await fn(c); } finally { c.close(); }
}

/** Daemon thread status, normalised from `thread/read` (exact, but only for threads the daemon holds). */
export interface DaemonThreadStatus {
  /** `active` | `idle` | `notLoaded` | `systemError` | … */
  type: string;
  activeFlags: string[];
  name: string | null;
  /** The thread's cwd: known to the daemon before the rollout exists (a TUI thread not yet prompted). */
  cwd: string | null;
}

export function parseThreadRead(result: unknown): DaemonThreadStatus | null {
  const thread = (result as { thread?: { status?: { type?: unknown; activeFlags?: unknown }; name?: unknown; cwd?: unknown } } | null)?.thread;
  const type = thread?.status?.type;
  if (typeof type !== 'string') return null;
  const flags = Array.isArray(thread?.status?.activeFlags) ? thread.status.activeFlags.filter((f): f is string => typeof f === 'string') : [];
  const str = (x: unknown): string | null => (typeof x === 'string' && x !== '' ? x : null);
  return { type, activeFlags: flags, name: str(thread?.name), cwd: str(thread?.cwd) };
}
