/**
 * Test double of the Codex daemon's control socket: WebSocket over a unix socket speaking JSON-RPC,
 * answering `thread/read` from a table, starting (or steering) turns on `turn/start`, and recording
 * every call. Test-only; it belongs in test/fakes/
 * (another engineer's folder) and can move there as is.
 */
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { OP, acceptKey, createFrameDecoder, createMessageAssembler, encodeFrame } from './ws-frames.ts';

export interface FakeAppServer {
  /** Methods received, in order (including notifications such as `initialized`). */
  readonly calls: { method: string; params: unknown }[];
  /** Thread statuses `thread/read` answers with; unknown ids answer `notLoaded`. `turnId`: the running turn. */
  readonly threads: Map<string, { type: string; activeFlags?: string[]; name?: string; cwd?: string; turnId?: string }>;
  /** Methods left unanswered (a daemon that took a request and went silent). */
  readonly silent: Set<string>;
  close(): Promise<void>;
}

export async function startFakeAppServer(socketPath: string): Promise<FakeAppServer> {
  const calls: FakeAppServer['calls'] = [];
  const threads: FakeAppServer['threads'] = new Map();
  const silent = new Set<string>();
  let turns = 0;
  const sockets = new Set<Socket>();

  const answer = (method: string, params: unknown): { result?: unknown; error?: { code: number; message: string } } => {
    const p = (params ?? {}) as { threadId?: string };
    switch (method) {
      case 'initialize': return { result: { userAgent: 'codex-tui/0.171.0 (fake)', codexHome: '/fake', platformFamily: 'unix', platformOs: 'linux' } };
      case 'thread/loaded/list': return { result: { data: [...threads.keys()], nextCursor: null } };
      case 'thread/read': {
        const t = threads.get(p.threadId ?? '');
        const status = t ? { type: t.type, ...(t.type === 'active' ? { activeFlags: t.activeFlags ?? [] } : {}) } : { type: 'notLoaded' };
        return { result: { thread: { id: p.threadId, status, name: t?.name ?? null, cwd: t?.cwd ?? null, turns: [] } } };
      }
      case 'turn/interrupt': {
        const t = threads.get(p.threadId ?? '');
        if (!t) return { error: { code: -32600, message: 'thread not loaded' } };
        threads.set(p.threadId as string, { ...t, type: 'idle', activeFlags: [] });
        return { result: {} };
      }
      case 'turn/start': {
        // As 0.171.0 does: an idle loaded thread starts a turn; a running one takes the input into that
        // turn (steers) and answers with its id. A thread not loaded is an error here (not observed).
        const t = threads.get(p.threadId ?? '');
        if (!t) return { error: { code: -32600, message: 'thread not loaded' } };
        const turnId = t.type === 'active' && t.turnId ? t.turnId : `turn-${++turns}`;
        threads.set(p.threadId as string, { ...t, type: 'active', activeFlags: t.activeFlags ?? [], turnId });
        return { result: { turn: { id: turnId, items: [], status: 'inProgress', error: null } } };
      }
      default: return { error: { code: -32601, message: `method not found: ${method}` } };
    }
  };

  const onUpgraded = (sock: Socket, first: Buffer): void => {
    const decode = createFrameDecoder();
    const assemble = createMessageAssembler();
    const onData = (d: Buffer): void => {
      for (const f of decode(d)) {
        const m = assemble(f);
        if (!m) continue;
        if (m.opcode === OP.close) { sock.end(); return; }
        if (m.opcode !== OP.text) continue;
        const msg = JSON.parse(m.data.toString('utf8')) as { id?: number; method: string; params?: unknown };
        calls.push({ method: msg.method, params: msg.params });
        if (msg.id === undefined || silent.has(msg.method)) continue;
        const reply = { id: msg.id, ...answer(msg.method, msg.params) };
        // A notification first, as the real daemon interleaves them.
        sock.write(encodeFrame(OP.text, Buffer.from(JSON.stringify({ method: 'remoteControl/status/changed', params: { status: 'disabled' } })), false));
        sock.write(encodeFrame(OP.text, Buffer.from(JSON.stringify(reply)), false));
      }
    };
    sock.on('data', onData);
    if (first.length > 0) onData(first);
  };

  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => {});
    let head = Buffer.alloc(0);
    const onHead = (d: Buffer): void => {
      head = Buffer.concat([head, d]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      sock.off('data', onHead);
      const key = /\r\nsec-websocket-key:\s*(\S+)/i.exec(head.subarray(0, end).toString('latin1'))?.[1] ?? '';
      sock.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptKey(key)}\r\n\r\n`);
      onUpgraded(sock, head.subarray(end + 4));
    };
    sock.on('data', onHead);
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(socketPath, () => resolve()); });
  server.unref();
  return {
    calls,
    threads,
    silent,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
