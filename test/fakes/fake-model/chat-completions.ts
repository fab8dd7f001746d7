/** OpenAI Chat Completions replies (OpenCode, pi, omp): streamed chunks, a usage chunk, then [DONE]. */
import { pacedText, sendJson, sleep, sseEvent, startSse } from './stream.ts';
import type { ReplyContext } from './stream.ts';
import type { Reply, Usage } from './types.ts';
import { fullUsage } from './usage.ts';

function wireUsage(u: Required<Usage>): Record<string, unknown> {
  const prompt = u.input + u.cacheRead;
  return { prompt_tokens: prompt, completion_tokens: u.output, total_tokens: prompt + u.output, prompt_tokens_details: { cached_tokens: u.cacheRead } };
}

function toolCalls(ctx: ReplyContext, reply: Reply): { index: number; id: string; type: 'function'; function: { name: string; arguments: string } }[] {
  return (reply.toolCalls ?? []).map((call, index) => ({ index, id: ctx.id('call_fake'), type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } }));
}

function finishReason(reply: Reply): string {
  return (reply.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop';
}

export function openAiError(ctx: ReplyContext, status: number, message: string): void {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(ctx, status, { error: { message, type, code: type } });
}

export async function chatCompletion(ctx: ReplyContext, model: string, reply: Reply): Promise<void> {
  if (!(await sleep(reply.delayMs ?? 0, ctx.signal))) return;
  const calls = toolCalls(ctx, reply).map(({ index: _index, ...call }) => call);
  const message = { role: 'assistant', content: reply.text ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  sendJson(ctx, 200, {
    id: ctx.id('chatcmpl-fake'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: finishReason(reply) }],
    usage: wireUsage(fullUsage(reply.usage)),
  });
}

export async function chatCompletionStream(ctx: ReplyContext, model: string, reply: Reply): Promise<void> {
  startSse(ctx);
  const base = { id: ctx.id('chatcmpl-fake'), object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: object, finish: string | null = null): void =>
    sseEvent(ctx, undefined, { ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  chunk({ role: 'assistant', content: '' });
  if (!(await pacedText(ctx, reply.text ?? '', reply.delayMs ?? 0, (text) => chunk({ content: text })))) return;
  const calls = toolCalls(ctx, reply);
  if (calls.length > 0) chunk({ tool_calls: calls });
  chunk({}, finishReason(reply));
  // Always sent: OpenCode asks for it, and pi/omp accepted it unasked.
  sseEvent(ctx, undefined, { ...base, choices: [], usage: wireUsage(fullUsage(reply.usage)) });
  sseEvent(ctx, undefined, '[DONE]');
  ctx.res.end();
}
