/** Anthropic Messages replies (Claude Code; pi's `anthropic-messages` provider). */
import { pacedText, sendJson, sleep, sseEvent, startSse } from './stream.ts';
import type { ReplyContext } from './stream.ts';
import type { Reply, Usage } from './types.ts';
import { fullUsage } from './usage.ts';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: object };

function wireUsage(u: Required<Usage>): Record<string, unknown> {
  // The API also splits cache writes by lifetime; Claude Code records the split (zeros when a server omits it).
  return {
    input_tokens: u.input, output_tokens: u.output, cache_creation_input_tokens: u.cacheWrite, cache_read_input_tokens: u.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: u.cacheWrite, ephemeral_1h_input_tokens: 0 },
  };
}

function blocks(ctx: ReplyContext, reply: Reply): Block[] {
  const out: Block[] = [];
  if (reply.text !== undefined && reply.text !== '') out.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls ?? []) out.push({ type: 'tool_use', id: ctx.id('toolu_fake'), name: call.name, input: call.input });
  return out;
}

function stopReason(reply: Reply): string {
  return (reply.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn';
}

export function anthropicError(ctx: ReplyContext, status: number, message: string): void {
  const type = status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : status === 401 ? 'authentication_error' : 'invalid_request_error';
  sendJson(ctx, status, { type: 'error', error: { type, message } });
}

export async function anthropicMessage(ctx: ReplyContext, model: string, reply: Reply): Promise<void> {
  if (!(await sleep(reply.delayMs ?? 0, ctx.signal))) return;
  sendJson(ctx, 200, {
    id: ctx.id('msg_fake'),
    type: 'message',
    role: 'assistant',
    model,
    content: blocks(ctx, reply),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: wireUsage(fullUsage(reply.usage)),
  });
}

export async function anthropicStream(ctx: ReplyContext, model: string, reply: Reply): Promise<void> {
  const usage = fullUsage(reply.usage);
  startSse(ctx);
  const message = { id: ctx.id('msg_fake'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null };
  sseEvent(ctx, 'message_start', { type: 'message_start', message: { ...message, usage: { ...wireUsage(usage), output_tokens: 1 } } });
  sseEvent(ctx, 'ping', { type: 'ping' });
  let index = 0;
  const text = reply.text ?? '';
  if (text !== '' || (reply.toolCalls?.length ?? 0) === 0) {
    sseEvent(ctx, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    const ok = await pacedText(ctx, text, reply.delayMs ?? 0, (chunk) =>
      sseEvent(ctx, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: chunk } }),
    );
    if (!ok) return;
    sseEvent(ctx, 'content_block_stop', { type: 'content_block_stop', index });
    index++;
  } else if (!(await sleep(reply.delayMs ?? 0, ctx.signal))) {
    return;
  }
  for (const block of blocks(ctx, { ...reply, text: '' })) {
    if (block.type !== 'tool_use') continue;
    sseEvent(ctx, 'content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } });
    sseEvent(ctx, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    sseEvent(ctx, 'content_block_stop', { type: 'content_block_stop', index });
    index++;
  }
  sseEvent(ctx, 'message_delta', { type: 'message_delta', delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: wireUsage(usage) });
  sseEvent(ctx, 'message_stop', { type: 'message_stop' });
  ctx.res.end();
}
