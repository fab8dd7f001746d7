/**
 * Google Generative Language API replies (Gemini CLI):
 * `POST /v1beta/models/<m>:streamGenerateContent?alt=sse` streams `data: <GenerateContentResponse>`
 * events (CRLF-framed, as Google's server does); `:generateContent` answers one JSON response. Side
 * calls (the model router, session summaries) are non-streaming JSON-schema requests: side-calls.ts
 * recognises them and `geminiSchemaReply` fills the schema.
 */
import { pacedText, sendJson, sleep, startSse } from './stream.ts';
import type { ReplyContext } from './stream.ts';
import type { Reply, Usage } from './types.ts';
import { fullUsage } from './usage.ts';

type Json = Record<string, unknown>;
type Part = { text: string } | { functionCall: { name: string; args: object } };

/** Gemini counts cached tokens inside promptTokenCount and reports them apart as cachedContentTokenCount. */
function wireUsage(u: Required<Usage>): Json {
  const prompt = u.input + u.cacheRead;
  return { promptTokenCount: prompt, candidatesTokenCount: u.output, totalTokenCount: prompt + u.output, ...(u.cacheRead > 0 ? { cachedContentTokenCount: u.cacheRead } : {}) };
}

function parts(reply: Reply): Part[] {
  const out: Part[] = [];
  if (reply.text !== undefined && reply.text !== '') out.push({ text: reply.text });
  for (const call of reply.toolCalls ?? []) out.push({ functionCall: { name: call.name, args: call.input } });
  return out.length > 0 ? out : [{ text: '' }];
}

function response(ctx: ReplyContext, model: string, content: Part[], usage: Json | undefined, finish: boolean): Json {
  return {
    candidates: [{ content: { role: 'model', parts: content }, ...(finish ? { finishReason: 'STOP' } : {}), index: 0 }],
    ...(usage ? { usageMetadata: usage } : {}),
    modelVersion: model,
    responseId: ctx.id('fakegem'),
  };
}

export function geminiError(ctx: ReplyContext, status: number, message: string): void {
  const code = status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'INTERNAL' : status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT';
  sendJson(ctx, status, { error: { code: status, message, status: code } });
}

export async function geminiGenerate(ctx: ReplyContext, model: string, reply: Reply): Promise<void> {
  if (!(await sleep(reply.delayMs ?? 0, ctx.signal))) return;
  sendJson(ctx, 200, response(ctx, model, parts(reply), wireUsage(fullUsage(reply.usage)), true));
}

/** Text chunks stream first (paced over delayMs), then the final event with the calls, finish reason and usage. */
export async function geminiStream(ctx: ReplyContext, model: string, reply: Reply): Promise<void> {
  startSse(ctx);
  const send = (o: Json): void => {
    if (!ctx.res.destroyed) ctx.res.write(`data: ${JSON.stringify(o)}\r\n\r\n`);
  };
  const text = reply.text ?? '';
  const slow = (reply.delayMs ?? 0) > 0;
  if (slow && !(await pacedText(ctx, text, reply.delayMs ?? 0, (chunk) => send(response(ctx, model, [{ text: chunk }], undefined, false))))) return;
  const rest = slow ? { ...reply, text: '' } : reply;
  send(response(ctx, model, parts(rest), wireUsage(fullUsage(reply.usage)), true));
  ctx.res.end();
}

/** A value satisfying a JSON schema, for the CLI's structured side calls (router, next speaker, summaries). */
export function fillSchema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return {};
  const s = schema as Json;
  const type = String(s['type'] ?? '').toLowerCase();
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return s['enum'][0];
  if (type === 'object') {
    const out: Json = {};
    const props = typeof s['properties'] === 'object' && s['properties'] !== null ? (s['properties'] as Json) : {};
    for (const [k, v] of Object.entries(props)) {
      if (k === 'next_speaker') out[k] = 'user';
      else if (k === 'model_choice') out[k] = 'flash';
      else out[k] = fillSchema(v);
    }
    return out;
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  if (type === 'number' || type === 'integer') return Math.max(1, typeof s['minimum'] === 'number' ? s['minimum'] : 1);
  return 'fake';
}
