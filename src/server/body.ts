/**
 * JSON body reading, the same rules on every route: content-type application/json (415), a declared
 * Content-Length over the limit refused before reading (413), a body that grows past the limit while
 * streaming refused too (413, also when Content-Length lied), and only a JSON object accepted (400).
 */
import type { Context } from 'hono';
import { MusterError } from '../errors/index.ts';

/** 64 KiB: the limit of every route but image uploads. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

export async function readJsonObject(c: Context, limit = DEFAULT_BODY_LIMIT): Promise<Record<string, unknown>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new MusterError('unsupported_media_type', 'send the body as JSON with content-type: application/json');
  }
  const bytes = await readLimited(c, limit);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new MusterError('invalid_json', 'the body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new MusterError('invalid_body', 'the body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

export async function readLimited(c: Context, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new MusterError('payload_too_large', `the body is larger than ${limit} bytes`);
  const declared = c.req.header('content-length');
  if (declared !== undefined && (!/^\d+$/.test(declared) || Number(declared) > limit)) throw tooLarge();
  const body = c.req.raw.body;
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const ch of chunks) {
    out.set(ch, at);
    at += ch.byteLength;
  }
  return out;
}
