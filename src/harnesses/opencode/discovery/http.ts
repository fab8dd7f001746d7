/**
 * The few calls Muster makes to an OpenCode HTTP server (`opencode --port N` or `opencode serve`):
 * session status, pending permissions, abort. Loopback only, short
 * timeouts, one connection per request (no keep-alive sockets left to hold the daemon open).
 */
import http from 'node:http';
import { isOpenCodeId } from '../ids.ts';

export type ServerSessionStatus =
  | { type: 'busy' }
  | { type: 'retry'; attempt: number | null; message: string | null }
  | { type: 'idle' };

export interface PendingPermission {
  id: string;
  sessionId: string;
  /** What it asks for, e.g. `bash: touch /tmp/x`. */
  reason: string;
  createdMs: number | null;
}

export interface ServerView {
  /** Only non-idle sessions appear in OpenCode's answer; absent means idle. */
  status: Map<string, ServerSessionStatus>;
  permissions: PendingPermission[];
}

export interface OpenCodeHttpPort {
  /** Status and pending permissions; null when the server does not answer usefully (down, auth, junk). Never throws. */
  view(baseUrl: string): Promise<ServerView | null>;
  /** `POST /session/:id/abort`; true on a 2xx answer. Never throws. */
  abort(baseUrl: string, sessionId: string): Promise<boolean>;
  /** `POST /session/:id/prompt_async` with one text part; true on a 2xx answer. Never throws. */
  prompt(baseUrl: string, sessionId: string, text: string): Promise<boolean>;
}

export interface OpenCodeHttpOptions {
  /** Per-request timeout in ms. Default: 500 (a local server answers in a few ms). */
  timeoutMs?: number;
}

export function createOpenCodeHttp(options: OpenCodeHttpOptions = {}): OpenCodeHttpPort {
  const timeoutMs = options.timeoutMs ?? 500;
  return {
    async view(baseUrl) {
      const [status, perms] = await Promise.all([
        request(baseUrl, 'GET', '/session/status', timeoutMs),
        request(baseUrl, 'GET', '/permission', timeoutMs),
      ]);
      if (!status || status.code !== 200) return null;
      const parsed = parseStatusBody(status.body);
      if (!parsed) return null;
      return { status: parsed, permissions: perms && perms.code === 200 ? parsePermissionsBody(perms.body) : [] };
    },
    async abort(baseUrl, sessionId) {
      if (!isOpenCodeId(sessionId)) return false;
      const r = await request(baseUrl, 'POST', `/session/${sessionId}/abort`, timeoutMs * 4);
      return r !== null && r.code >= 200 && r.code < 300;
    },
    async prompt(baseUrl, sessionId, text) {
      if (!isOpenCodeId(sessionId)) return false;
      const r = await request(baseUrl, 'POST', `/session/${sessionId}/prompt_async`, timeoutMs * 4, { parts: [{ type: 'text', text }] });
      return r !== null && r.code >= 200 && r.code < 300;
    },
  };
}

function request(baseUrl: string, method: string, p: string, timeoutMs: number, json?: unknown): Promise<{ code: number; body: string } | null> {
  return new Promise((resolve) => {
    let url: URL;
    try { url = new URL(baseUrl.replace(/\/+$/, '') + p); } catch { resolve(null); return; }
    const data = json === undefined ? undefined : JSON.stringify(json);
    const headers: Record<string, string | number> = { accept: 'application/json', ...(data === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }) };
    const req = http.request(url, { method, agent: false, timeout: timeoutMs, headers }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        // A status answer is small; anything huge is not the server we expect.
        if (size > 1 << 20) { req.destroy(); resolve(null); return; }
        chunks.push(c);
      });
      res.on('end', () => resolve({ code: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end(data);
  });
}

/** `{"ses_…":{"type":"busy"}}` → map; null when the body is not that shape. */
export function parseStatusBody(body: string): Map<string, ServerSessionStatus> | null {
  let v: unknown;
  try { v = JSON.parse(body); } catch { return null; }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const out = new Map<string, ServerSessionStatus>();
  for (const [id, raw] of Object.entries(v as Record<string, unknown>)) {
    if (!isOpenCodeId(id) || !raw || typeof raw !== 'object') continue;
    const s = raw as Record<string, unknown>;
    if (s.type === 'busy') out.set(id, { type: 'busy' });
    else if (s.type === 'retry') {
      out.set(id, { type: 'retry', attempt: typeof s.attempt === 'number' ? s.attempt : null, message: typeof s.message === 'string' ? s.message : null });
    } else if (s.type === 'idle') out.set(id, { type: 'idle' });
  }
  return out;
}

/**
 * `GET /permission` → pending requests. Shapes differ across versions (`permission`+`patterns` now,
 * `type`+`pattern`+`title` before); anything without a session id is dropped.
 */
export function parsePermissionsBody(body: string): PendingPermission[] {
  let v: unknown;
  try { v = JSON.parse(body); } catch { return []; }
  if (!Array.isArray(v)) return [];
  const out: PendingPermission[] = [];
  for (const raw of v) {
    if (!raw || typeof raw !== 'object') continue;
    const r = raw as Record<string, unknown>;
    const sessionId = r.sessionID;
    if (typeof sessionId !== 'string' || !isOpenCodeId(sessionId)) continue;
    const kind = typeof r.permission === 'string' ? r.permission : typeof r.type === 'string' ? r.type : 'permission';
    const pats = Array.isArray(r.patterns) ? r.patterns : Array.isArray(r.pattern) ? r.pattern : typeof r.pattern === 'string' ? [r.pattern] : [];
    const what = typeof r.title === 'string' && r.title ? r.title : pats.filter((x): x is string => typeof x === 'string').join(', ');
    const time = r.time && typeof r.time === 'object' ? (r.time as Record<string, unknown>).created : undefined;
    out.push({
      id: typeof r.id === 'string' ? r.id : '',
      sessionId,
      reason: (what ? `${kind}: ${what}` : kind).slice(0, 200),
      createdMs: typeof time === 'number' ? time : null,
    });
  }
  return out;
}
