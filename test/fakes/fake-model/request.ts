/** Reading and classifying an incoming HTTP request into a FakeRequest record. */
import type { IncomingMessage } from 'node:http';
import zlib from 'node:zlib';
import type { FakeRequest, Protocol } from './types.ts';

/** Bodies above this are cut off (Claude Code bodies run to a few hundred KB). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function classify(method: string, pathname: string): Protocol {
  const p = pathname.replace(/\/+$/, '');
  if (method === 'GET' && (p === '/v1/models' || p === '/models' || p === '/v1beta/models')) return 'models';
  if (method !== 'POST') return 'unknown';
  if (/^\/v1(beta|alpha)?\/models\/[^/:]+:(streamGenerateContent|generateContent)$/.test(p)) return 'gemini';
  if (/^\/v1(beta|alpha)?\/models\/[^/:]+:countTokens$/.test(p)) return 'gemini-count-tokens';
  if (p === '/v1/messages/count_tokens') return 'anthropic-count-tokens';
  if (p === '/v1/messages') return 'anthropic-messages';
  if (p === '/v1/chat/completions' || p === '/chat/completions') return 'chat-completions';
  if (p === '/v1/responses' || p === '/responses') return 'responses';
  return 'unknown';
}

function decode(raw: Buffer, encoding: string | undefined): Buffer | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case '':
    case 'identity':
      return raw;
    case 'gzip':
      return zlib.gunzipSync(raw);
    case 'deflate':
      return zlib.inflateSync(raw);
    case 'br':
      return zlib.brotliDecompressSync(raw);
    case 'zstd': {
      // zstd is in node:zlib only from Node 22.15; on Node 20 the body stays undecoded.
      const z = zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer };
      return z.zstdDecompressSync?.(raw);
    }
    default:
      return undefined;
  }
}

export function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size === 0) return resolve(undefined);
      let text: string;
      try {
        const decoded = decode(Buffer.concat(chunks), req.headers['content-encoding']);
        if (decoded === undefined) return resolve(`<undecoded ${req.headers['content-encoding']} body, ${size} bytes>`);
        text = decoded.toString('utf8');
      } catch {
        return resolve(`<corrupt ${req.headers['content-encoding']} body, ${size} bytes>`);
      }
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(text);
      }
    });
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function sessionHeader(req: IncomingMessage): string | undefined {
  return header(req, 'x-claude-code-session-id') ?? header(req, 'session-id') ?? header(req, 'x-session-id');
}

export function toRecord(req: IncomingMessage, seq: number, body: unknown): FakeRequest {
  const path = req.url ?? '/';
  const method = req.method ?? 'GET';
  const protocol = classify(method, new URL(path, 'http://fake').pathname);
  // Gemini says "stream" in the method name, the others in the body.
  const stream = protocol === 'gemini' ? path.includes(':streamGenerateContent') : typeof body === 'object' && body !== null && 'stream' in body && body.stream === true;
  const record: FakeRequest = { seq, at: Date.now(), method, path, headers: req.headers, body, protocol, stream };
  const sessionId = sessionHeader(req);
  if (sessionId !== undefined) record.sessionId = sessionId;
  return record;
}
