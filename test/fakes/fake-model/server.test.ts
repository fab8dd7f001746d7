import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { DEFAULT_USAGE, postModel, startFakeModel } from './index.ts';
import type { FakeModel } from './index.ts';

async function withFake(fn: (fake: FakeModel) => Promise<void>, logFile?: string): Promise<void> {
  const fake = await startFakeModel(logFile ? { logFile } : {});
  try {
    await fn(fake);
  } finally {
    await fake.close();
  }
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => v as Obj;

test('anthropic ?beta=true stream: full event sequence, default text and usage, session header recorded', () =>
  withFake(async (fake) => {
    const res = await postModel(`${fake.url}/v1/messages?beta=true`, { model: 'claude-x', stream: true, messages: [{ role: 'user', content: 'hello' }] }, { 'x-claude-code-session-id': 'sess-1' });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.events.map((e) => e.event),
      ['message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'],
    );
    for (const e of res.events) assert.equal(obj(e.data)['type'], e.event, 'every data object carries its type');
    assert.equal(obj(obj(obj(res.events[0]?.data)['message']))['model'], 'claude-x');
    assert.deepEqual(obj(res.events[3]?.data)['delta'], { type: 'text_delta', text: 'hi from fake model' });
    const delta = obj(res.events[5]?.data);
    assert.deepEqual(delta['delta'], { stop_reason: 'end_turn', stop_sequence: null });
    assert.deepEqual(delta['usage'], { input_tokens: DEFAULT_USAGE.input, output_tokens: DEFAULT_USAGE.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } });
    const [rec] = fake.requests;
    assert.equal(rec?.protocol, 'anthropic-messages');
    assert.equal(rec?.path, '/v1/messages?beta=true');
    assert.equal(rec?.sessionId, 'sess-1');
    assert.equal(rec?.stream, true);
    assert.deepEqual(obj(rec?.body)['messages'], [{ role: 'user', content: 'hello' }]);
  }));

test('anthropic non-streaming: text + tool_use blocks, stop_reason tool_use, scripted usage', () =>
  withFake(async (fake) => {
    fake.enqueue({ text: 'running it', toolCalls: [{ name: 'Bash', input: { command: 'ls' } }], usage: { input: 7, output: 3, cacheRead: 5, cacheWrite: 2 } });
    const res = await postModel(`${fake.url}/v1/messages`, { model: 'm', tools: [{ name: 'Bash' }], messages: [{ role: 'user', content: 'x' }] });
    const body = obj(res.json);
    assert.equal(body['stop_reason'], 'tool_use');
    const content = body['content'] as Obj[];
    assert.equal(content[0]?.['text'], 'running it');
    assert.equal(content[1]?.['type'], 'tool_use');
    assert.match(String(content[1]?.['id']), /^toolu_fake/);
    assert.deepEqual(content[1]?.['input'], { command: 'ls' });
    assert.deepEqual(body['usage'], { input_tokens: 7, output_tokens: 3, cache_creation_input_tokens: 2, cache_read_input_tokens: 5, cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 0 } });
  }));

test('anthropic stream of a tool call sends the whole input in one input_json_delta', () =>
  withFake(async (fake) => {
    fake.enqueue({ toolCalls: [{ name: 'Write', input: { file_path: '/tmp/a', content: 'b' } }] });
    const res = await postModel(`${fake.url}/v1/messages`, { stream: true, messages: [] });
    const start = res.events.find((e) => e.event === 'content_block_start');
    assert.equal(obj(obj(start?.data)['content_block'])['name'], 'Write');
    const delta = res.events.find((e) => e.event === 'content_block_delta');
    assert.deepEqual(obj(delta?.data)['delta'], { type: 'input_json_delta', partial_json: '{"file_path":"/tmp/a","content":"b"}' });
    assert.equal(obj(obj(res.events.find((e) => e.event === 'message_delta')?.data)['delta'])['stop_reason'], 'tool_use');
  }));

test('count_tokens and GET /v1/models answer without touching the queue', () =>
  withFake(async (fake) => {
    fake.enqueue({ text: 'kept' });
    const count = await postModel(`${fake.url}/v1/messages/count_tokens`, { messages: [] });
    assert.deepEqual(count.json, { input_tokens: DEFAULT_USAGE.input });
    const models = (await (await fetch(`${fake.url}/v1/models`)).json()) as { data: { id: string }[] };
    assert.deepEqual(models.data.map((m) => m.id), ['fake-model', 'claude-fake-1']);
    assert.equal(fake.pending(), 1);
    assert.deepEqual(fake.requests.map((r) => r.protocol), ['anthropic-count-tokens', 'models']);
  }));

test('chat completions stream: role chunk, tool_calls chunk, finish reason, usage chunk, [DONE]', () =>
  withFake(async (fake) => {
    fake.enqueue({ toolCalls: [{ name: 'bash', input: { command: 'pwd' } }], usage: { input: 40, output: 4, cacheRead: 10 } });
    const res = await postModel(`${fake.url}/v1/chat/completions`, { model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'go' }] }, { 'x-session-id': 'ses_abc' });
    assert.equal(res.events.at(-1)?.data, '[DONE]');
    assert.ok(res.events.every((e) => e.event === undefined), 'bare data lines only');
    const chunks = res.events.slice(0, -1).map((e) => obj(e.data));
    const choice = (c: Obj): Obj => (c['choices'] as Obj[])[0] ?? {};
    assert.deepEqual(choice(chunks[0] ?? {})['delta'], { role: 'assistant', content: '' });
    const calls = obj(choice(chunks[1] ?? {})['delta'])['tool_calls'] as Obj[];
    assert.deepEqual(calls[0]?.['function'], { name: 'bash', arguments: '{"command":"pwd"}' });
    assert.equal(choice(chunks[2] ?? {})['finish_reason'], 'tool_calls');
    assert.deepEqual(chunks[3]?.['usage'], { prompt_tokens: 50, completion_tokens: 4, total_tokens: 54, prompt_tokens_details: { cached_tokens: 10 } });
    assert.equal(fake.requests[0]?.sessionId, 'ses_abc');
  }));

test('chat completions non-streaming returns a chat.completion', () =>
  withFake(async (fake) => {
    const res = await postModel(`${fake.url}/v1/chat/completions`, { messages: [{ role: 'user', content: 'hi' }] });
    const body = obj(res.json);
    assert.equal(body['object'], 'chat.completion');
    assert.deepEqual((body['choices'] as Obj[])[0], { index: 0, message: { role: 'assistant', content: 'hi from fake model' }, finish_reason: 'stop' });
  }));

test('responses stream: text then function call, increasing sequence numbers, usage in response.completed', () =>
  withFake(async (fake) => {
    fake.enqueue({ text: 'ok', toolCalls: [{ name: 'exec_command', input: { cmd: 'ls' } }] });
    const res = await postModel(`${fake.url}/v1/responses`, { model: 'fake-model', stream: true, input: [] }, { 'session-id': 'thread-1' });
    assert.deepEqual(res.events.map((e) => e.event), [
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ]);
    const seqs = res.events.map((e) => obj(e.data)['sequence_number'] as number);
    assert.deepEqual(seqs, seqs.map((_, i) => i));
    const done = obj(obj(res.events.at(-1)?.data)['response']);
    const output = done['output'] as Obj[];
    assert.equal(output[1]?.['type'], 'function_call');
    assert.equal(output[1]?.['arguments'], '{"cmd":"ls"}');
    assert.match(String(output[1]?.['call_id']), /^call_fake/);
    assert.deepEqual(done['usage'], { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 });
    assert.equal(fake.requests[0]?.sessionId, 'thread-1');
  }));

test('handlers come before the queue, the queue is FIFO, then the default text', () =>
  withFake(async (fake) => {
    fake.enqueue({ text: 'first' }, { text: 'second' });
    const remove = fake.onRequest((req) => (JSON.stringify(req.body).includes('magic') ? { text: 'from handler' } : undefined));
    const ask = async (content: string): Promise<unknown> =>
      (obj(res0(await postModel(`${fake.url}/v1/chat/completions`, { messages: [{ role: 'user', content }] })))['message'] as Obj)['content'];
    const res0 = (r: { json: unknown }): Obj => (obj(r.json)['choices'] as Obj[])[0] ?? {};
    assert.equal(await ask('magic'), 'from handler');
    assert.equal(await ask('a'), 'first');
    remove();
    assert.equal(await ask('magic'), 'second');
    assert.equal(await ask('b'), 'hi from fake model');
  }));

test('side calls are answered without consuming the queue and are marked', () =>
  withFake(async (fake) => {
    fake.enqueue({ text: 'scripted' });
    fake.setSideCallReply('omp-title', 'Custom omp title');
    const title = await postModel(`${fake.url}/v1/chat/completions`, { messages: [{ role: 'system', content: 'You are a title generator. …' }, { role: 'user', content: 'SLOW5' }] });
    const omp = await postModel(`${fake.url}/v1/chat/completions`, { messages: [{ role: 'user', content: '<user>\nTOOL_BASH\n</user>' }] });
    const label = await postModel(`${fake.url}/v1/messages?beta=true`, { max_tokens: 2080, messages: [{ role: 'user', content: 'Name it. Respond with ONLY the label.' }] });
    const job = await postModel(`${fake.url}/v1/messages?beta=true`, { system: [{ type: 'text', text: 'You decide which of four states the job is in' }], messages: [{ role: 'user', content: 'x' }] });
    const codex = await postModel(`${fake.url}/v1/responses`, { stream: false, input: [] }, { 'x-codex-turn-metadata': JSON.stringify({ thread_source: 'thread_title' }) });
    assert.equal(fake.pending(), 1);
    assert.deepEqual(fake.requests.map((r) => r.sideCall), ['opencode-title', 'omp-title', 'claude-label', 'claude-job-state', 'codex-title']);
    assert.equal(((obj(title.json)['choices'] as Obj[])[0]?.['message'] as Obj)['content'], 'Fake session title');
    assert.equal(((obj(omp.json)['choices'] as Obj[])[0]?.['message'] as Obj)['content'], 'Custom omp title');
    assert.equal((obj(label.json)['content'] as Obj[])[0]?.['text'], 'fake-label');
    assert.equal(JSON.parse(String((obj(job.json)['content'] as Obj[])[0]?.['text'])).state, 'done');
    const codexText = ((obj(codex.json)['output'] as Obj[])[0]?.['content'] as Obj[])[0]?.['text'];
    assert.deepEqual(JSON.parse(String(codexText)), { title: 'Fake task title' });
  }));

test('error replies use each protocol\'s error shape and status', () =>
  withFake(async (fake) => {
    fake.enqueue({ error: { status: 429, message: 'slow down' } }, { error: { status: 500, message: 'boom' } });
    const a = await postModel(`${fake.url}/v1/messages`, { stream: true, messages: [] });
    assert.equal(a.status, 429);
    assert.deepEqual(a.json, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
    const o = await postModel(`${fake.url}/v1/responses`, { stream: true, input: [] });
    assert.equal(o.status, 500);
    assert.deepEqual(o.json, { error: { message: 'boom', type: 'server_error', code: 'server_error' } });
  }));

test('delayMs streams text in chunks spread over the delay; waitForRequest sees the request at arrival', () =>
  withFake(async (fake) => {
    fake.enqueue({ text: 'abcdefghij', delayMs: 600 });
    const pending = postModel(`${fake.url}/v1/chat/completions`, { stream: true, messages: [] });
    const seen = await fake.waitForRequest((r) => r.protocol === 'chat-completions', 2000);
    assert.equal(seen.reply?.delayMs, 600, 'the chosen reply is visible before the stream ends');
    const res = await pending;
    const textEvents = res.events.filter((e) => typeof e.data === 'object' && JSON.stringify(e.data).includes('"content":"') && !JSON.stringify(e.data).includes('"content":""'));
    assert.equal(textEvents.length, 10);
    const first = textEvents[0]?.atMs ?? 0;
    const last = textEvents.at(-1)?.atMs ?? 0;
    assert.ok(last - first >= 400, `chunks spread over time (${first}..${last} ms)`);
  }));

test('close() during a slow reply returns promptly and destroys the socket', async () => {
  const fake = await startFakeModel();
  fake.enqueue({ text: 'never finishes', delayMs: 60_000 });
  const pending = postModel(`${fake.url}/v1/messages`, { stream: true, messages: [] }, {}, 5000).then(
    () => 'finished',
    () => 'aborted',
  );
  await fake.waitForRequest(() => true, 2000);
  const t0 = Date.now();
  await fake.close();
  await fake.close();
  assert.ok(Date.now() - t0 < 2000, 'close did not wait for the slow reply');
  const outcome = await pending;
  assert.ok(outcome === 'aborted' || outcome === 'finished');
  await assert.rejects(fetch(`${fake.url}/v1/models`));
});

test('waitForRequest rejects after its timeout', () =>
  withFake(async (fake) => {
    await assert.rejects(fake.waitForRequest(() => true, 50), /no matching request within 50 ms/);
  }));

test('log file gets one JSON line per request; gzip bodies are decoded; unknown paths 404', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-model-'));
  const logFile = path.join(dir, 'requests.jsonl');
  try {
    await withFake(async (fake) => {
      const gz = zlib.gzipSync(JSON.stringify({ messages: [{ role: 'user', content: 'zipped' }] }));
      const res = await fetch(`${fake.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gz });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      const missing = await fetch(`${fake.url}/v2/nothing`, { method: 'POST' });
      assert.equal(missing.status, 404);
      await missing.arrayBuffer();
      assert.deepEqual(obj(fake.requests[0]?.body)['messages'], [{ role: 'user', content: 'zipped' }]);
    }, logFile);
    const lines = fs.readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Obj);
    assert.deepEqual(lines.map((l) => [l['method'], l['path'], l['protocol']]), [
      ['POST', '/v1/chat/completions', 'chat-completions'],
      ['POST', '/v2/nothing', 'unknown'],
    ]);
    assert.equal(obj(lines[0]?.['reply'])['text'], 'hi from fake model');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('gemini: streamGenerateContent streams CRLF-framed GenerateContentResponse events with usage; tool calls as functionCall parts', () =>
  withFake(async (fake) => {
    const url = `${fake.url}/v1beta/models/gemini-fake:streamGenerateContent?alt=sse`;
    const body = { contents: [{ role: 'user', parts: [{ text: 'hello' }] }], tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }] };
    const res = await postModel(url, body);
    assert.equal(res.status, 200);
    assert.equal(res.events.length, 1);
    const first = obj(res.events[0]?.data);
    const cand = (first['candidates'] as Obj[])[0] as Obj;
    assert.deepEqual(obj(cand['content'])['parts'], [{ text: 'hi from fake model' }]);
    assert.equal(cand['finishReason'], 'STOP');
    assert.deepEqual(first['usageMetadata'], { promptTokenCount: DEFAULT_USAGE.input, candidatesTokenCount: DEFAULT_USAGE.output, totalTokenCount: DEFAULT_USAGE.input + DEFAULT_USAGE.output });
    assert.equal(first['modelVersion'], 'gemini-fake');
    const [rec] = fake.requests;
    assert.equal(rec?.protocol, 'gemini');
    assert.equal(rec?.stream, true);
    fake.enqueue({ toolCalls: [{ name: 'run_shell_command', input: { command: 'ls' } }], usage: { input: 5, output: 2, cacheRead: 3 } });
    const tool = await postModel(url, body);
    const last = obj(tool.events.at(-1)?.data);
    assert.deepEqual(obj(((last['candidates'] as Obj[])[0] as Obj)['content'])['parts'], [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }]);
    assert.deepEqual(last['usageMetadata'], { promptTokenCount: 8, candidatesTokenCount: 2, totalTokenCount: 10, cachedContentTokenCount: 3 });
  }));

test('gemini side calls: a JSON-schema generateContent gets its schema filled (router score ≥ 1), a plain one a summary; neither uses the queue', () =>
  withFake(async (fake) => {
    fake.enqueue({ text: 'kept for the main turn' });
    const schema = { type: 'object', properties: { complexity_reasoning: { type: 'string' }, complexity_score: { type: 'integer', minimum: 1 } }, required: ['complexity_score'] };
    const router = await postModel(`${fake.url}/v1beta/models/gemini-lite:generateContent`, {
      contents: [{ role: 'user', parts: [{ text: 'classify' }] }],
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
    });
    const text = String(((obj(((obj(router.json)['candidates'] as Obj[])[0] as Obj)['content'])['parts'] as Obj[])[0] as Obj)['text']);
    assert.deepEqual(JSON.parse(text), { complexity_reasoning: 'fake', complexity_score: 1 });
    const summary = await postModel(`${fake.url}/v1beta/models/gemini-lite:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'Summarize the user' }] }] });
    assert.match(JSON.stringify(summary.json), /Fake summary/);
    assert.deepEqual(fake.requests.map((r) => r.sideCall), ['gemini-json', 'gemini-summary']);
    assert.equal(fake.pending(), 1);
    const count = await postModel(`${fake.url}/v1beta/models/gemini-lite:countTokens`, { contents: [] });
    assert.deepEqual(count.json, { totalTokens: DEFAULT_USAGE.input });
  }));
