/**
 * The client half of `muster hook`, kept free of the HTTP framework, the SQLite driver and the
 * daemon client so the hook process starts about as fast as `node -e 0`: find the daemon from the
 * wrapper's env (MUSTER_URL, MUSTER_TOKEN_FILE) or the lock record, post once with a hard deadline,
 * and give up silently. A hook must never stall an agent, and it never starts a daemon.
 * `node:http` is imported only once a daemon is recorded: with the daemon stopped the hook loads
 * nothing but fs/os/path (measured: node:http alone costs ~14 ms of CPU at startup on this box).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isWellFormedToken } from '../daemon/token-format.ts';

export interface DaemonTarget {
  /** API base, e.g. http://127.0.0.1:6878/api */
  api: string;
  token: string;
}

/** Reads where the daemon is without checking that it runs (the post finds out at no extra cost). */
export function findDaemon(env: NodeJS.ProcessEnv): DaemonTarget | null {
  const home = resolve(env.MUSTER_HOME || join(homedir(), '.muster'));
  const tokenFile = env.MUSTER_TOKEN_FILE || join(home, 'token');
  let api = env.MUSTER_URL ?? null;
  if (!api) {
    try {
      const rec = JSON.parse(readFileSync(join(home, 'muster.db.lock'), 'utf8')) as { endpoints?: { api?: unknown } };
      api = typeof rec.endpoints?.api === 'string' ? rec.endpoints.api : null;
    } catch {
      return null;
    }
  }
  // Only ever talk to loopback: the token must not leave the machine.
  if (!api || !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/api$/.test(api)) return null;
  try {
    const token = readFileSync(tokenFile, 'utf8').trim();
    return isWellFormedToken(token) ? { api, token } : null;
  } catch {
    return null;
  }
}

/** A payload's short scalars: strings cut to 500 characters, numbers and booleans. */
function scalars(payload: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(payload)) {
    if (typeof v === 'string') out[k] = v.length > 500 ? v.slice(0, 500) : v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

/**
 * Keeps what a status transition needs (short scalars, an OpenCode `status` object, the scalars of
 * a Gemini notification's `details`: what waits for approval) and drops bulky fields (tool
 * input/output, prompts, every user message of a thread) so the post stays small and quick.
 */
export function trimPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const out = scalars(payload);
  for (const k of ['status', 'details']) {
    const v = payload[k];
    if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = k === 'status' ? v : scalars(v as Record<string, unknown>);
  }
  return out;
}

/** POSTs JSON; resolves to the parsed answer, or null on any failure or when `deadlineMs` passes. */
export async function postJson(target: DaemonTarget, path: string, body: unknown, deadlineMs: number): Promise<Record<string, unknown> | null> {
  const { request } = await import('node:http');
  return new Promise((done) => {
    let settled = false;
    const finish = (v: Record<string, unknown> | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(v);
    };
    const u = new URL(`${target.api}${path}`);
    const data = Buffer.from(JSON.stringify(body));
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(data.length), authorization: `Bearer ${target.token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            finish(res.statusCode === 200 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : null);
          } catch {
            finish(null);
          }
        });
        res.on('error', () => finish(null));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(null);
    }, deadlineMs);
    timer.unref();
    req.on('error', () => finish(null));
    req.end(data);
  });
}

/** Reads stdin to the end, or returns what arrived when `deadlineMs` passes (a hook must not hang). */
export function readStdin(deadlineMs: number): Promise<string> {
  return new Promise((done) => {
    if (process.stdin.isTTY) return done('');
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      process.stdin.pause();
      process.stdin.removeAllListeners();
      done(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(finish, deadlineMs);
    timer.unref();
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.on('end', finish);
    process.stdin.on('error', finish);
  });
}
