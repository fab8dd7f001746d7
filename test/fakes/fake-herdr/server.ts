/**
 * A fake herdr API server on a temporary Unix socket: one
 * request per connection — read up to the first newline, write one JSON line, end. Bad JSON, an
 * unknown method or params that are not an object get `invalid_request` with an empty id; a blank
 * line or EOF before a newline gets nothing. Faults exercise a client's timeouts and framing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { HerdrFault, HerdrModel, type FakeProcess } from './model.ts';
import { METHODS } from './methods.ts';

export type Fault = 'none' | 'delay' | 'no_reply' | 'close_mid_line' | 'malformed';

export interface FakeHerdrOptions {
  /** Socket path (a stale file there is replaced). */
  socket: string;
  /** Reported by ping. Defaults: '0.8.0', 19. */
  version?: string;
  protocol?: number;
  capabilities?: Record<string, boolean>;
  /** Start with one workspace, tab and focused shell pane (like a fresh herdr). Default: true. */
  initialPane?: boolean;
  /**
   * Really start layout.apply's argv (detached, no shell, in its cwd) and report its pid as the
   * pane's shell_pid, like herdr does. Killed when the pane exits or the fake closes. Default: false.
   */
  spawnCommands?: boolean;
}

export interface FakeHerdr {
  readonly socket: string;
  readonly model: HerdrModel;
  /** Every request line received, parsed (unparseable ones as the raw string). */
  readonly requests: unknown[];
  /** Fault for the following replies; `delay` waits `delayMs` first. */
  setFault(fault: Fault, delayMs?: number): void;
  setProtocol(protocol: number, version?: string): void;
  /** Test hook: the pane's shell and foreground processes (omitted from replies when empty). */
  setProcessInfo(paneId: string, info: { shellPid?: number; foregroundGroup?: number; foreground?: FakeProcess[] }): void;
  setScreen(paneId: string, text: string): void;
  /** Test hook: the pane's process exits (the pane, and an emptied tab/workspace, disappear). */
  exitPane(paneId: string): void;
  close(): Promise<void>;
}

/** "Not running" with a file present: connecting to a non-socket path fails with ECONNREFUSED. */
export function writeStaleSocketFile(path: string): void {
  rmSync(path, { force: true });
  writeFileSync(path, '');
}

export async function startFakeHerdr(options: FakeHerdrOptions): Promise<FakeHerdr> {
  const model = new HerdrModel();
  if (options.initialPane ?? true) model.createWorkspace({ focus: true });
  const ctx = { version: options.version ?? '0.8.0', protocol: options.protocol ?? 19, capabilities: options.capabilities ?? { live_handoff: true, detached_server_daemon: false } };
  const requests: unknown[] = [];
  const sockets = new Set<Socket>();
  let fault: Fault = 'none';
  let delayMs = 0;

  function answer(line: string): string {
    let req: { id?: unknown; method?: unknown; params?: unknown };
    try {
      req = JSON.parse(line) as typeof req;
      requests.push(req);
    } catch {
      requests.push(line);
      return JSON.stringify({ id: '', error: { code: 'invalid_request', message: 'invalid request: expected JSON' } });
    }
    const method = typeof req?.method === 'string' ? METHODS[req.method] : undefined;
    const params = req?.params;
    if (typeof req?.id !== 'string' || !method || method.since > ctx.protocol || params === null || typeof params !== 'object' || Array.isArray(params)) {
      return JSON.stringify({ id: '', error: { code: 'invalid_request', message: `invalid request: ${String(req?.method)}` } });
    }
    try {
      const result = method.run(model, params as Record<string, unknown>, ctx);
      if (req.method === 'layout.apply' && options.spawnCommands) startCommand((result.layout as { focused_pane_id: string }).focused_pane_id);
      return JSON.stringify({ id: req.id, result });
    } catch (e) {
      if (e instanceof HerdrFault) return JSON.stringify({ id: req.id, error: { code: e.code, message: e.message } });
      return JSON.stringify({ id: req.id, error: { code: 'internal_error', message: (e as Error).message } });
    }
  }

  const children = new Map<string, ChildProcess>();
  function startCommand(paneId: string): void {
    const pane = model.pane(paneId);
    const [cmd, ...args] = pane.command ?? [];
    if (!cmd) return;
    const child = spawn(cmd, args, { cwd: pane.cwd, stdio: 'ignore' });
    child.on('error', () => {});
    children.set(paneId, child);
    if (child.pid) pane.shell_pid = child.pid;
  }

  function reply(sock: Socket, line: string): void {
    if (line.trim() === '') return; // a blank line gets no reply
    const out = answer(line);
    const send = () => {
      if (sock.destroyed) return;
      if (fault === 'no_reply') return;
      if (fault === 'close_mid_line') return void sock.end(out.slice(0, Math.floor(out.length / 2)));
      if (fault === 'malformed') return void sock.end('{"id": oops\n');
      sock.end(`${out}\n`);
    };
    if (fault === 'delay') setTimeout(send, delayMs).unref();
    else send();
  }

  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => {});
    sock.setEncoding('utf8');
    let buf = '';
    let handled = false;
    sock.on('data', (chunk: string) => {
      if (handled) return; // a second line is never read
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        handled = true;
        reply(sock, buf.slice(0, nl));
      } else if (buf.length > 1024 * 1024) sock.destroy();
    });
    // herdr allows 5 s for the first line, then drops the connection without a reply.
    sock.setTimeout(5000, () => sock.destroy());
  });
  rmSync(options.socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socket, () => resolve());
  });
  let closing: Promise<void> | undefined;
  return {
    socket: options.socket,
    model,
    requests,
    setFault(f, ms = 0) {
      fault = f;
      delayMs = ms;
    },
    setProtocol(p, v) {
      ctx.protocol = p;
      if (v) ctx.version = v;
    },
    setProcessInfo(paneId, info) {
      const pane = model.pane(paneId);
      if (info.shellPid !== undefined) pane.shell_pid = info.shellPid;
      if (info.foregroundGroup !== undefined) pane.foreground_process_group_id = info.foregroundGroup;
      if (info.foreground) pane.foreground_processes = info.foreground;
    },
    setScreen(paneId, text) {
      model.pane(paneId).screen = text;
    },
    exitPane(paneId) {
      children.get(paneId)?.kill('SIGKILL');
      model.removePane(paneId);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        for (const c of children.values()) c.kill('SIGKILL');
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
