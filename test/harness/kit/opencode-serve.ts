/**
 * A real `opencode serve` for a scenario: on a port that was free a moment before (the kernel's pick,
 * not a random guess that may be taken), its output kept, and ready once its HTTP API answers. When it
 * does not answer in time, or exits first, the error carries the end of what it printed.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface OpencodeServe {
  base: string;
  /** GET (no body) or POST a JSON body; the answer's JSON, null for 204. */
  call(path: string, body?: unknown): Promise<Record<string, unknown> | null>;
  stop(): void;
}

/** A port the kernel just handed out on 127.0.0.1, released again for the caller to bind. */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(0, '127.0.0.1', resolve));
  const addr = srv.address();
  await new Promise((r) => srv.close(r));
  if (addr === null || typeof addr === 'string') throw new Error('no port');
  return addr.port;
}

export async function startOpencodeServe(bin: string, o: { cwd: string; env: NodeJS.ProcessEnv; readyMs?: number }): Promise<OpencodeServe> {
  const port = await freePort();
  const child = spawn(bin, ['serve', '--port', String(port), '--hostname', '127.0.0.1', '--print-logs'], { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (b: Buffer): void => void (output = (output + b.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: string | null = null;
  // 'close', not 'exit': by then everything it printed has been read.
  child.once('close', (code, signal) => (exited = `exited (${code ?? signal})`));
  const base = `http://127.0.0.1:${port}`;
  const call = async (path: string, body?: unknown): Promise<Record<string, unknown> | null> => {
    const r = await fetch(`${base}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
    return r.status === 204 ? null : ((await r.json()) as Record<string, unknown>);
  };
  const stop = (): void => void child.kill('SIGTERM');
  const readyMs = o.readyMs ?? 60_000;
  const deadline = Date.now() + readyMs;
  for (;;) {
    if ((await call('/session').catch(() => undefined)) !== undefined) return { base, call, stop };
    if (exited !== null || Date.now() > deadline) {
      stop();
      throw new Error(`opencode serve on port ${port} ${exited ?? `did not answer within ${readyMs} ms`}; its output ended with:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
