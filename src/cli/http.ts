/**
 * A minimal HTTP/1.1 JSON client on node:http (cheaper to load than fetch/undici, which matters for
 * `muster status` start time). Bounded by a timeout; never follows redirects.
 */
import { request } from 'node:http';

export interface HttpResult {
  status: number;
  body: unknown;
}

export interface HttpOptions {
  method?: string;
  token?: string | null;
  body?: unknown;
  timeoutMs?: number;
}

/** The answer's status and its body bytes, untouched (a JSON envelope can be passed straight on). */
export function httpRaw(url: string, options: HttpOptions = {}): Promise<{ status: number; raw: Buffer }> {
  return httpInto(url, options, null).then((r) => ({ status: r.status, raw: r.raw ?? Buffer.alloc(0) }));
}

/**
 * Like httpRaw, but a 2xx body is written to `out` as it arrives instead of being collected (raw is
 * then null); other answers are collected for their error envelope. Resolves once the whole body has
 * been handed to `out` (a later write's callback on `out` tells when it is flushed).
 */
export function httpInto(url: string, options: HttpOptions, out: NodeJS.WritableStream | null): Promise<{ status: number; raw: Buffer | null }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      res.on('error', reject);
      if (out && status >= 200 && status < 300) {
        res.pipe(out, { end: false });
        res.on('end', () => resolve({ status, raw: null }));
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status, raw: Buffer.concat(chunks) }));
    });
    req.setTimeout(options.timeoutMs ?? 5000, () => req.destroy(new Error(`request to ${u.pathname} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Parses a body as JSON; text that is not JSON is returned as the string. */
export function parseBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

export async function httpJson(url: string, options: HttpOptions = {}): Promise<HttpResult> {
  const { status, raw } = await httpRaw(url, options);
  return { status, body: parseBody(raw) };
}
