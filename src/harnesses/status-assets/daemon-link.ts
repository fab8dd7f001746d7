/**
 * The status plugin's and extension's link to the daemon, inside the harness's own process (pi runs
 * Node; OpenCode and omp run Bun): where the daemon is (the wrapper's env, else MUSTER_HOME's lock
 * record and token) and a bounded POST. Everything here swallows its own failures: a status report
 * must never break the agent it rides in. node:http, not fetch: pi installs its own undici dispatcher
 * for fetch, and posts through it never arrived (observed with pi 0.73.1); node:http also starts faster.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { TOKEN_PATTERN } from '../../daemon/token-format.ts';

export interface DaemonLink {
  api: string;
  token: string;
}

/** The lock record's API, as the daemon publishes it: loopback only, so the token never leaves the machine. */
const LOOPBACK_API = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/api$/;

/** The daemon to report to, or null (not running, not on loopback, no well-formed token: an empty or malformed token file is no token). Never throws. */
export function findDaemon(): DaemonLink | null {
  try {
    const home = process.env.MUSTER_HOME || join(homedir(), '.muster');
    const fromLock = (): unknown => (JSON.parse(readFileSync(join(home, 'muster.db.lock'), 'utf8')) as { endpoints?: { api?: unknown } }).endpoints?.api;
    const api = process.env.MUSTER_URL || fromLock();
    const token = readFileSync(process.env.MUSTER_TOKEN_FILE || join(home, 'token'), 'utf8').trim();
    if (typeof api !== 'string' || !LOOPBACK_API.test(api) || !TOKEN_PATTERN.test(token)) return null;
    return { api, token };
  } catch {
    return null;
  }
}

export interface PostResult {
  /** HTTP status, 0 when the daemon could not be reached or did not answer in time. */
  status: number;
  /** The answer's JSON, or null. */
  json: unknown;
  /** Why there is no answer, when there is none. */
  error: string | null;
}

/**
 * POSTs `body` to `<api><path>` within `timeoutMs`; resolves (never rejects) with what came back. A
 * `background` request (the inbox's long poll) does not keep the harness's process alive.
 */
export function postJson(link: DaemonLink, path: string, body: unknown, timeoutMs: number, headers: Record<string, string> = {}, signal?: AbortSignal, background = false): Promise<PostResult> {
  return new Promise((done) => {
    let settled = false;
    const finish = (r: PostResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(r);
    };
    const data = JSON.stringify(body);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const u = new URL(link.api + path);
      const req = request(
        {
          host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), authorization: `Bearer ${link.token}`, ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            let json: unknown = null;
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              // Not JSON: the status alone tells.
            }
            finish({ status: res.statusCode ?? 0, json, error: json === null ? `Muster answered ${res.statusCode}` : null });
          });
          res.on('error', () => finish({ status: 0, json: null, error: 'the answer from Muster was cut off' }));
        },
      );
      timer = setTimeout(() => {
        req.destroy();
        finish({ status: 0, json: null, error: 'Muster did not answer in time' });
      }, timeoutMs);
      timer.unref?.();
      req.on('error', (e) => finish({ status: 0, json: null, error: e.message }));
      if (background) req.on('socket', (sock) => sock.unref());
      signal?.addEventListener('abort', () => req.destroy(new Error('cancelled')), { once: true });
      req.end(data);
    } catch (e) {
      finish({ status: 0, json: null, error: (e as Error).message });
    }
  });
}

/**
 * Reports one of the harness's events to POST /api/hooks/<harness>/<event>. Fire-and-forget (2 s
 * bound: nothing waits on it) except where the harness awaits it (shutdown: pass a short bound).
 */
export async function reportEvent(harness: string, event: string, payload: unknown, timeoutMs = 2000): Promise<PostResult | null> {
  const link = findDaemon();
  if (!link) return null;
  return postJson(link, `/hooks/${harness}/${encodeURIComponent(event)}`, { payload, pid: process.pid, launchId: process.env.MUSTER_LAUNCH_ID || null }, timeoutMs);
}
