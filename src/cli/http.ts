/**
 * A minimal HTTP/1.1 JSON client on node:http (cheaper to load than fetch/undici, which matters for
 * `muster status` start time). Bounded by a timeout; never follows redirects.
 */
import { request } from 'node:http';

export interface HttpResult {
  status: number;
  body: unknown;
}

export function httpJson(url: string, options: { method?: string; token?: string | null; body?: unknown; timeoutMs?: number } = {}): Promise<HttpResult> {
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
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {}
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    req.setTimeout(options.timeoutMs ?? 5000, () => req.destroy(new Error(`request to ${u.pathname} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}
