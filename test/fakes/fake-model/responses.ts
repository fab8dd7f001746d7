/** OpenAI Responses replies (Codex). */
import { pacedText, sendJson, sleep, sseEvent, startSse } from './stream.ts';
import type { ReplyContext } from './stream.ts';
import type { Reply, Usage } from './types.ts';
import { fullUsage } from './usage.ts';

type Item = Record<string, unknown>;

function wireUsage(u: Required<Usage>): Record<string, unknown> {
  const input = u.input + u.cacheRead;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + u.output,
  };
}

function messageItem(id: string, text: string, status: string): Item {
  return { type: 'message', id, role: 'assistant', status, content: status === 'completed' ? [{ type: 'output_text', text, annotations: [] }] : [] };
}

function callItems(ctx: ReplyContext, reply: Reply): Item[] {
  return (reply.toolCalls ?? []).map((call) => ({
    type: 'function_call',
    id: ctx.id('fc_fake'),
    call_id: ctx.id('call_fake'),
    ...(call.namespace !== undefined ? { namespace: call.namespace } : {}),
    name: call.name,
    arguments: JSON.stringify(call.input),
    status: 'completed',
  }));
}

function responseObject(id: string, model: string, status: string, output: Item[], usage?: Required<Usage>): Item {
  return { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model, status, output, ...(usage ? { usage: wireUsage(usage) } : {}) };
}

export async function responsesReply(ctx: ReplyContext, model: string, reply: Reply): Promise<void> {
  if (!(await sleep(reply.delayMs ?? 0, ctx.signal))) return;
  const output: Item[] = [];
  if (reply.text) output.push(messageItem(ctx.id('msg_fake'), reply.text, 'completed'));
  output.push(...callItems(ctx, reply));
  sendJson(ctx, 200, responseObject(ctx.id('resp_fake'), model, 'completed', output, fullUsage(reply.usage)));
}

export async function responsesStream(ctx: ReplyContext, model: string, reply: Reply): Promise<void> {
  startSse(ctx);
  let seq = 0;
  const emit = (type: string, data: object): void => sseEvent(ctx, type, { type, sequence_number: seq++, ...data });
  const respId = ctx.id('resp_fake');
  emit('response.created', { response: responseObject(respId, model, 'in_progress', []) });
  emit('response.in_progress', { response: responseObject(respId, model, 'in_progress', []) });
  const output: Item[] = [];
  const text = reply.text ?? '';
  const calls = callItems(ctx, reply);
  if (text !== '' || calls.length === 0) {
    const itemId = ctx.id('msg_fake');
    const at = { output_index: 0, item_id: itemId, content_index: 0 };
    emit('response.output_item.added', { output_index: 0, item: messageItem(itemId, '', 'in_progress') });
    emit('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
    if (!(await pacedText(ctx, text, reply.delayMs ?? 0, (delta) => emit('response.output_text.delta', { ...at, delta })))) return;
    emit('response.output_text.done', { ...at, text });
    emit('response.content_part.done', { ...at, part: { type: 'output_text', text, annotations: [] } });
    const done = messageItem(itemId, text, 'completed');
    emit('response.output_item.done', { output_index: 0, item: done });
    output.push(done);
  } else if (!(await sleep(reply.delayMs ?? 0, ctx.signal))) {
    return;
  }
  for (const call of calls) {
    const outputIndex = output.length;
    emit('response.output_item.added', { output_index: outputIndex, item: { ...call, arguments: '', status: 'in_progress' } });
    emit('response.function_call_arguments.delta', { output_index: outputIndex, item_id: call['id'], delta: call['arguments'] });
    emit('response.function_call_arguments.done', { output_index: outputIndex, item_id: call['id'], arguments: call['arguments'] });
    emit('response.output_item.done', { output_index: outputIndex, item: call });
    output.push(call);
  }
  emit('response.completed', { response: responseObject(respId, model, 'completed', output, fullUsage(reply.usage)) });
  ctx.res.end();
}
