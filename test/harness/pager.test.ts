/**
 * Real-harness acceptance of the pager (issue 7): the pinned `claude -p` and `codex exec` run with
 * Muster's MCP server injected per process, against the fake model, and a real daemon (the BUILT CLI).
 * The fake model calls the ask tool; the test answers through `POST /api/pages/:id/answer` while the
 * call waits; the next model request must carry the answer as the tool result, and the CLI exits 0.
 * An MCP recording proxy sits between the CLI and the daemon so the test can state what each CLI sent.
 *
 * What the model must send to reach the tool (observed with these versions):
 *
 * Claude Code 2.1.332 — `claude -p … --mcp-config '{"mcpServers":{"muster":{"type":"http","url":"…/mcp",
 * "headers":{"Authorization":"Bearer <token>"}}}}' --strict-mcp-config --allowedTools mcp__muster__ask_operator
 * --session-id <uuid>`. Claude connects MCP servers before its first model request, but MCP tools are
 * deferred: absent from `tools[]` (which has `ToolSearch`), listed by name in the system prompt. The model must
 *   1. reply with a tool_use `ToolSearch` `{"query":"select:mcp__muster__ask_operator","max_results":1}`
 *      (stop_reason `tool_use`). The next request carries a tool_result whose content is
 *      `[{"type":"tool_reference","tool_name":"mcp__muster__ask_operator"}]`, and its `tools[]` now
 *      includes `mcp__muster__ask_operator` with its schema;
 *   2. reply with a tool_use `mcp__muster__ask_operator` `{"question":"…"}`. Claude sends MCP `tools/call`
 *      `{"name":"ask_operator","arguments":{…},"_meta":{"claudecode/toolUseId":"toolu_…","progressToken":N}}`
 *      and waits while the pager holds the call (up to its 45 s bound, with progress notifications);
 *   3. the next request's last user message holds a tool_result (text: the JSON outcome
 *      `{"status":"answered","pageId":…,"answer":…,"instruction":…}`); the model answers in text.
 *   `-p` refuses the MCP call unless it is allowed (`--allowedTools` or a permissive mode).
 *
 * Codex 0.171.0 — `codex exec -c mcp_servers.muster.url="…/mcp"
 * -c mcp_servers.muster.bearer_token_env_var="MUSTER_MCP_TOKEN" -c mcp_servers.muster.required=true`.
 *   MCP tools are offered at once as `{"type":"namespace","name":"mcp__muster","tools":[…ask_operator…]}`.
 *   The model emits a `function_call` item `{"namespace":"mcp__muster","name":"ask_operator",
 *   "arguments":"{\"question\":\"…\"}"}`; the next request's last input item is a `function_call_output`
 *   with the same `call_id`, whose output holds the answer; the model then answers in text.
 *   Codex does NOT wait for an optional MCP server before the first turn: when tools/list is slower than
 *   its own start-up (observed with Muster answering each MCP request in 100–400 ms on a loaded host), the
 *   first request lacks the namespace and the call fails with `unsupported call: mcp__musterask_operator`.
 *   `required=true` makes Codex finish the server's start-up (tools/list included) before the first turn;
 *   this test holds tools/list 1.5 s to keep that claim checked.
 *
 * Attribution: Codex's tools/call carries `_meta.threadId` (= the thread id, the model request's
 * `session-id` header). Claude names no session to MCP servers (no `x-claude-code-session-id` header, no
 * id in `_meta`: that header goes to the model only), so a bare `claude -p` page is attributed through
 * the MCP client's root (its cwd) to the one live Claude session there — the `--session-id` one.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { endsWithToolResult, lastUserText, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel, FakeRequest } from '../fakes/fake-model/index.ts';
import { splitBoardUrl } from '../e2e/kit.ts';
import { ensureHarnessCli, harnessEnv, runCli, startHarnessDaemon } from './kit/index.ts';
import type { HarnessDaemon, HarnessEnv, HarnessName } from './kit/index.ts';

const SCENARIO_MS = 150_000;
const ANSWER = 'use the blue button, says the operator';

type Json = Record<string, unknown>;

interface Api {
  base: string;
  token: string;
  call(method: string, p: string, body?: unknown): Promise<Json>;
}

async function apiOf(d: HarnessDaemon): Promise<Api> {
  const r = await d.muster(['url']);
  const { base, token } = splitBoardUrl(String(r.json['url']));
  const call = async (method: string, p: string, body?: unknown): Promise<Json> => {
    const res = await fetch(`${base}/api${p}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
    return (await res.json()) as Json;
  };
  return { base, token, call };
}

interface McpRecord { method: string; headers: http.IncomingHttpHeaders; body: unknown }

/**
 * A pass-through proxy in front of the daemon's /mcp that records each request (headers, JSON body).
 * `holdToolsListMs` delays forwarding tools/list, standing in for a slow server.
 */
async function recordingProxy(target: string, holdToolsListMs = 0): Promise<{ url: string; records: McpRecord[]; close(): Promise<void> }> {
  const records: McpRecord[] = [];
  const up = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown;
      try { body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch { body = raw.toString('utf8'); }
      records.push({ method: req.method ?? '', headers: req.headers, body });
      const forward = (): void => {
        const fwd = http.request({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers: { ...req.headers, host: up.host } }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res); // SSE replies (progress notifications) stream through
        });
        fwd.on('error', () => res.destroy());
        fwd.end(raw);
      };
      if ((body as Json | undefined)?.['method'] === 'tools/list' && holdToolsListMs > 0) setTimeout(forward, holdToolsListMs);
      else forward();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}${up.pathname}`, records, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

/** The tools/call requests the proxy saw (single messages or batches). */
function toolCalls(records: McpRecord[]): { headers: http.IncomingHttpHeaders; msg: Json }[] {
  const out: { headers: http.IncomingHttpHeaders; msg: Json }[] = [];
  for (const r of records) for (const m of Array.isArray(r.body) ? r.body : [r.body]) if ((m as Json | undefined)?.['method'] === 'tools/call') out.push({ headers: r.headers, msg: m as Json });
  return out;
}

/** Polls GET /api/pages?status=pending until a page exists, answers it with ANSWER, returns it. */
async function answerWhilePending(api: Api, cliDone: () => boolean, timeoutMs: number): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pages = (await api.call('GET', '/pages?status=pending')).pages as Json[] | undefined;
    const page = pages?.[0];
    if (page) {
      const r = await api.call('POST', `/pages/${String(page['id'])}/answer`, { text: ANSWER });
      assert.equal(r['ok'], true, JSON.stringify(r));
      return page;
    }
    if (cliDone()) throw new Error('the CLI exited before any page was pending');
    if (Date.now() > deadline) throw new Error(`no pending page within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Text of the tool_result blocks in the last user message (Anthropic). */
function anthropicToolResult(req: FakeRequest): Json | undefined {
  const messages = ((req.body as Json)['messages'] ?? []) as Json[];
  const content = messages.at(-1)?.['content'];
  return Array.isArray(content) ? (content as Json[]).find((b) => b['type'] === 'tool_result') : undefined;
}

function blockText(v: unknown): string {
  if (typeof v === 'string') return v;
  return Array.isArray(v) ? v.map((b: Json) => (typeof b['text'] === 'string' ? b['text'] : JSON.stringify(b))).join('\n') : JSON.stringify(v);
}

const toolNames = (req: FakeRequest): string[] => (((req.body as Json)['tools'] ?? []) as Json[]).map((t) => String(t['name']));

describe('pager acceptance with real harnesses (issue 7)', () => {
  let model: FakeModel;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-pager-'));
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    model = await startFakeModel();
  });

  after(async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function scenario(name: HarnessName, holdToolsListMs = 0): Promise<{ bin: string; h: HarnessEnv; d: HarnessDaemon; api: Api; proxy: Awaited<ReturnType<typeof recordingProxy>> }> {
    const cli = await ensureHarnessCli(name);
    const sRoot = path.join(root, name);
    const h = harnessEnv(name, { root: sRoot, modelUrl: model.url, binDir: cli.binDir });
    const d = await startHarnessDaemon({ homes: [h], root: sRoot });
    closers.push(() => d.close());
    const api = await apiOf(d);
    // No notify-send on a test host: desktop notifications would only log failures.
    assert.equal((await api.call('POST', '/settings', { notifyDesktop: false }))['ok'], true);
    const proxy = await recordingProxy(`${api.base}/mcp`, holdToolsListMs);
    closers.push(() => proxy.close());
    return { bin: cli.bin, h, d, api, proxy };
  }

  it('claude -p: ToolSearch, then ask_operator; the operator answer (via the API) is the tool result; exit 0', { timeout: SCENARIO_MS }, async () => {
    const { bin, h, api, proxy } = await scenario('claude');
    const sessionId = randomUUID();
    const question = 'Which button should I press, red or blue?';
    // Scripted by the number of assistant turns so far in this session's conversation.
    model.onRequest((req) => {
      if (req.protocol !== 'anthropic-messages' || req.sessionId !== sessionId) return undefined;
      const turns = (((req.body as Json)['messages'] ?? []) as Json[]).filter((m) => m['role'] === 'assistant').length;
      if (turns === 0) return { toolCalls: [{ name: 'ToolSearch', input: { query: 'select:mcp__muster__ask_operator', max_results: 1 } }] };
      if (turns === 1) return { toolCalls: [{ name: 'mcp__muster__ask_operator', input: { question } }] };
      return { text: `Pressing it: ${blockText(anthropicToolResult(req)?.['content']).slice(0, 200)}` };
    });
    const mcp = { mcpServers: { muster: { type: 'http', url: proxy.url, headers: { Authorization: `Bearer ${api.token}` } } } };
    let done = false;
    const run = runCli(bin, ['-p', 'PAGER press the right button', '--session-id', sessionId, '--mcp-config', JSON.stringify(mcp), '--strict-mcp-config', '--allowedTools', 'mcp__muster__ask_operator', '--output-format', 'json'], { cwd: h.cwd, env: h.env, timeoutMs: 120_000 }).finally(() => (done = true));

    const page = await answerWhilePending(api, () => done, 100_000).catch(async (e: unknown) => {
      const r = await run;
      throw new Error(`${(e as Error).message}; claude exited ${r.code}: ${r.stderr.slice(-2000)} ${r.stdout.slice(-2000)}`);
    });
    const r = await run;
    assert.equal(r.code, 0, `claude -p failed: ${r.stderr.slice(-2000)}`);

    const reqs = model.requests.filter((q) => q.sessionId === sessionId && q.protocol === 'anthropic-messages');
    assert.equal(reqs.length, 3, `three model requests: ${reqs.map((q) => lastUserText(q).slice(0, 80)).join(' | ')}`);
    const [first, second, third] = reqs as [FakeRequest, FakeRequest, FakeRequest];
    assert.ok(!toolNames(first).some((n) => n.startsWith('mcp__')), `MCP tools deferred: ${toolNames(first).join(',')}`);
    assert.ok(toolNames(first).includes('ToolSearch'));
    const searched = anthropicToolResult(second);
    assert.ok(searched && searched['is_error'] !== true, `ToolSearch succeeded: ${JSON.stringify(searched)}`);
    assert.deepEqual(searched['content'], [{ type: 'tool_reference', tool_name: 'mcp__muster__ask_operator' }], 'ToolSearch answers with a tool_reference');
    assert.ok(toolNames(second).includes('mcp__muster__ask_operator'), `loaded after ToolSearch: ${toolNames(second).join(',')}`);
    const answered = anthropicToolResult(third);
    assert.ok(answered && answered['is_error'] !== true, `ask_operator result: ${JSON.stringify(answered)}`);
    const resultText = blockText(answered['content']);
    assert.match(resultText, /"status":"answered"/);
    assert.ok(resultText.includes(ANSWER), `the tool result carries the answer: ${resultText}`);
    assert.ok(endsWithToolResult(third));
    const out = JSON.parse(r.stdout) as { result: string; session_id: string };
    assert.equal(out.session_id, sessionId);
    assert.ok(out.result.includes(ANSWER), `claude continued with the answer: ${out.result}`);

    const calls = toolCalls(proxy.records);
    assert.equal(calls.length, 1);
    assert.equal(page['question'], question);
    const params = calls[0]!.msg['params'] as Json;
    assert.equal(calls[0]!.headers['x-claude-code-session-id'], undefined, 'Claude names no session to MCP servers (headers)');
    assert.ok(!JSON.stringify(params['_meta'] ?? {}).includes(sessionId), 'nor in the tools/call _meta');
    assert.equal(page['sessionId'], sessionId, `attributed to the --session-id session: ${JSON.stringify(page['attribution'])}`);
    assert.equal(page['harness'], 'claude');
    assert.equal((page['attribution'] as Json)['via'], 'cwd', 'through the MCP client root (cwd) and the one live Claude session there');
    const after = (await api.call('GET', `/pages/${String(page['id'])}`)).page as Json;
    assert.equal(after['status'], 'delivered');
    assert.deepEqual(after['answer'], { text: ANSWER, choice: null, by: 'operator' });
  });

  it('codex exec: namespaced ask_operator; the operator answer (via the API) is the function_call_output; exit 0', { timeout: SCENARIO_MS }, async () => {
    // tools/list held 1.5 s: without `required=true` codex exec would start its turn without the tools.
    const { bin, h, api, proxy } = await scenario('codex', 1500);
    const question = 'Ship it on Friday?';
    const marker = `PAGER_CODEX_${randomUUID().slice(0, 8)}`;
    model.onRequest((req) => {
      if (req.protocol !== 'responses' || !lastUserText(req).includes(marker)) return undefined;
      if (endsWithToolResult(req)) {
        const last = (((req.body as Json)['input'] ?? []) as Json[]).at(-1);
        return { text: `Done: ${blockText(last?.['output']).slice(0, 200)}` };
      }
      return { toolCalls: [{ name: 'ask_operator', namespace: 'mcp__muster', input: { question } }] };
    });
    const env = { ...h.env, MUSTER_MCP_TOKEN: api.token };
    let done = false;
    const run = runCli(bin, ['exec', '--skip-git-repo-check', '--json', '-c', `mcp_servers.muster.url=${JSON.stringify(proxy.url)}`, '-c', 'mcp_servers.muster.bearer_token_env_var="MUSTER_MCP_TOKEN"', '-c', 'mcp_servers.muster.required=true', `${marker} ship it`], { cwd: h.cwd, env, timeoutMs: 120_000 }).finally(() => (done = true));

    const page = await answerWhilePending(api, () => done, 100_000).catch(async (e: unknown) => {
      const r = await run;
      throw new Error(`${(e as Error).message}; codex exited ${r.code}: ${r.stderr.slice(-2000)} ${r.stdout.slice(-2000)}`);
    });
    const r = await run;
    assert.equal(r.code, 0, `codex exec failed: ${r.stderr.slice(-2000)}`);

    const reqs = model.requests.filter((q) => q.protocol === 'responses' && lastUserText(q).includes(marker));
    assert.equal(reqs.length, 2, 'the call, then the answer');
    const [first, second] = reqs as [FakeRequest, FakeRequest];
    const ns = ((first.body as Json)['tools'] as Json[]).find((t) => t['type'] === 'namespace' && t['name'] === 'mcp__muster');
    assert.ok(ns, 'the muster server is offered as a namespace tool');
    assert.ok((ns['tools'] as Json[]).some((t) => t['name'] === 'ask_operator'));
    const threadId = String(first.headers['session-id']);
    const output = (((second.body as Json)['input'] ?? []) as Json[]).at(-1) as Json;
    assert.equal(output['type'], 'function_call_output');
    const call = (((second.body as Json)['input'] ?? []) as Json[]).find((i) => i['type'] === 'function_call') as Json;
    assert.deepEqual([call['namespace'], call['name'], output['call_id']], ['mcp__muster', 'ask_operator', call['call_id']]);
    const outText = blockText(output['output']);
    assert.ok(outText.includes(ANSWER) && outText.includes('"status":"answered"'), `function_call_output carries the answer: ${outText}`);
    assert.ok(r.stdout.includes(`Done: `) && r.stdout.includes(threadId), 'codex continued after the answer (--json events name the thread)');

    const calls = toolCalls(proxy.records);
    assert.equal(calls.length, 1);
    const meta = (calls[0]!.msg['params'] as Json)['_meta'] as Json;
    assert.equal(meta['threadId'], threadId, `tools/call _meta: ${JSON.stringify(meta)}`);
    assert.equal(page['question'], question);
    assert.equal(page['sessionId'], threadId, `attributed by _meta.threadId: ${JSON.stringify(page['attribution'])}`);
    assert.equal(page['harness'], 'codex');
    assert.equal((page['attribution'] as Json)['via'], 'codex-thread');
    const after = (await api.call('GET', `/pages/${String(page['id'])}`)).page as Json;
    assert.equal(after['status'], 'delivered');
  });
});
