// The pager through the real daemon (built CLI): the official MCP SDK client lists and calls the tools,
// pages reach SSE clients, the operator answers through the API and the CLI, and bad input is a clear
// tool error or 4xx — never a crash. (Issue 7: Build 1, 2, 3, 5; Acceptance "Bad input".)
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { runCli, tempHome } from './kit.ts';
import { callTool, connectMcp, openSse, startPagerDaemon, type RunningDaemon, type SseReader } from './pager-kit.ts';

const SID = '0b5c3f1e-7a2d-4e8f-9c1b-2d3e4f5a6b7c';

describe('pager over MCP and HTTP', () => {
  const t = tempHome('muster-e2e-pager-');
  let d: RunningDaemon;
  let client: Client;
  let sse: SseReader;

  before(async () => {
    d = await startPagerDaemon(t.home, { askWaitSeconds: 2 });
    client = await connectMcp(d, { 'x-muster-session-id': SID, 'x-muster-harness': 'claude', 'x-muster-launch-id': 'launch-1', 'x-muster-cwd': '/work/app' });
    sse = await openSse(d);
  });
  after(async () => {
    sse?.close();
    await client?.close().catch(() => undefined);
    await d?.stop();
    t.cleanup();
  });

  it('lists the four tools with descriptions and input/output schemas', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((x) => x.name).sort(), ['ask_operator', 'await_answer', 'cancel_page', 'notify_operator', 'search_sessions']);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 80, `${tool.name} has a description written for models`);
      assert.ok(tool.outputSchema, `${tool.name} declares structured output`);
    }
    const ask = tools.find((x) => x.name === 'ask_operator')!;
    assert.deepEqual(ask.inputSchema.required, ['question']);
  });

  it('ask → page.opened on SSE (attributed from the wrapper headers) → answer via the API → the waiting call returns it', async () => {
    const asking = callTool(client, 'ask_operator', { question: 'Merge PR #12?', choices: ['merge', 'wait'], urgency: 'high', context: 'CI is green' });
    const opened = await sse.next('page.opened', (p) => p.question === 'Merge PR #12?');
    const page = opened.data as { id: string; sessionId: string; harness: string; attribution: { via: string; launchId: string; cwd: string } };
    assert.equal(page.sessionId, SID);
    assert.equal(page.harness, 'claude');
    assert.deepEqual([page.attribution.via, page.attribution.launchId, page.attribution.cwd], ['header', 'launch-1', '/work/app']);
    const r = await d.api('POST', `/pages/${page.id}/answer`, { choice: 0 });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.deepEqual(await asking, { status: 'answered', pageId: page.id, answer: 'merge', choice: 0, instruction: 'The operator answered; continue with this answer.' });
    await sse.next('page.answered', (p) => p.id === page.id);
    await sse.next('page.delivered', (p) => p.id === page.id);
  });

  it('muster pages --pending and muster answer <id> <text> drive the same flow from the CLI', async () => {
    const pending = await callTool(client, 'ask_operator', { question: 'Which region?' });
    assert.equal(pending.status, 'pending');
    const listed = await runCli(['pages', '--pending'], d.env);
    assert.equal(listed.code, 0, listed.stderr);
    const pages = listed.json.pages as { id: string; sessionId: string; question: string; choices: unknown; status: string }[];
    const mine = pages.find((p) => p.id === pending.pageId);
    assert.deepEqual(mine && [mine.sessionId, mine.question, mine.choices, mine.status], [SID, 'Which region?', null, 'pending']);
    assert.ok(pages.every((p) => p.status === 'pending'));
    const answered = await runCli(['answer', pending.pageId, 'eu-west', 'please'], d.env);
    assert.equal(answered.code, 0, answered.stderr);
    assert.equal((answered.json.page as { status: string }).status, 'answered');
    assert.equal((await callTool(client, 'await_answer', { pageId: pending.pageId })).answer, 'eu-west please');
    const again = await runCli(['answer', pending.pageId, 'twice'], d.env);
    assert.equal(again.code, 1);
    assert.equal(again.json.error?.code, 'page_already_answered');
    const bad = await runCli(['answer', 'nope', '--choice', '1'], d.env);
    assert.equal(bad.json.error?.code, 'invalid_id');
  });

  it('notify_operator opens a notice; cancel_page withdraws a question (await then says cancelled); dismiss closes a notice', async () => {
    const n = await callTool(client, 'notify_operator', { message: 'Tests pass', level: 'success' });
    assert.equal(n.status, 'sent');
    const notice = await sse.next('page.opened', (p) => p.id === n.pageId);
    assert.deepEqual([notice.data.kind, notice.data.level], ['notice', 'success']);
    assert.equal((await d.api('POST', `/pages/${n.pageId}/dismiss`)).status, 200);
    const q = await callTool(client, 'ask_operator', { question: 'still needed?' });
    assert.equal((await callTool(client, 'cancel_page', { pageId: q.pageId })).status, 'cancelled');
    assert.equal((await callTool(client, 'await_answer', { pageId: q.pageId })).status, 'cancelled');
    const late = await d.api('POST', `/pages/${q.pageId}/answer`, { text: 'yes' });
    assert.deepEqual([late.status, late.json.error?.code], [409, 'page_closed']);
  });

  it('bad tool input is a tool error naming the problem, and the session keeps working', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['ask_operator', {}, /question/],
      ['ask_operator', { question: 'x'.repeat(5000) }, /question/],
      ['ask_operator', { question: 'q', choices: ['one'] }, /choices/],
      ['notify_operator', { message: 'm', level: 'loud' }, /level/],
      ['await_answer', { pageId: 'pag_00000000000000000000000000' }, /page_not_found/],
      ['await_answer', { pageId: '../../etc' }, /invalid_id/],
      ['cancel_page', { pageId: 'pag_00000000000000000000000000' }, /page_not_found/],
    ];
    for (const [name, args, re] of cases) {
      const r = await callTool(client, name, args);
      assert.equal(r.status, 'error', `${name} ${JSON.stringify(args)}`);
      assert.match(r.error ?? '', re);
    }
    assert.equal((await client.listTools()).tools.length, 5, "the pager's four and search_sessions");
  });

  it('bad API input is a 4xx with a code: unknown id, malformed id, bad body, oversized body, bad filters', async () => {
    const q = await callTool(client, 'ask_operator', { question: 'q?', choices: ['a', 'b'] });
    const expect = async (p: Promise<{ status: number; json: { error?: { code: string } } }>, status: number, code: string) => {
      const r = await p;
      assert.deepEqual([r.status, r.json.error?.code], [status, code]);
    };
    await expect(d.api('POST', '/pages/pag_00000000000000000000000000/answer', { text: 'x' }), 404, 'page_not_found');
    await expect(d.api('POST', '/pages/not-a-page/answer', { text: 'x' }), 400, 'invalid_id');
    await expect(d.api('GET', '/pages/not-a-page'), 400, 'invalid_id');
    await expect(d.api('POST', `/pages/${q.pageId}/answer`, { choice: 7 }), 400, 'invalid_argument');
    await expect(d.api('POST', `/pages/${q.pageId}/answer`, {}), 400, 'invalid_argument');
    await expect(d.api('POST', `/pages/${q.pageId}/answer`, '[1]'), 400, 'invalid_body');
    await expect(d.api('POST', `/pages/${q.pageId}/answer`, { text: 'x'.repeat(70_000) }), 413, 'payload_too_large');
    await expect(d.api('GET', '/pages?status=weird'), 400, 'invalid_argument');
    const dismissed = await d.api('POST', `/pages/${q.pageId}/dismiss`);
    assert.equal((dismissed.json.page as { status: string }).status, 'dismissed');
    await expect(d.api('POST', `/pages/${q.pageId}/dismiss`), 409, 'page_closed');
    assert.equal((await callTool(client, 'await_answer', { pageId: q.pageId })).status, 'dismissed');
  });

  it('page text comes back verbatim as JSON strings (plain text; markup is not interpreted)', async () => {
    const text = '<img src=x onerror=alert(1)> **not bold** & "quotes"';
    const r = await callTool(client, 'notify_operator', { message: text, level: 'warning' });
    const got = await d.api('GET', `/pages/${r.pageId}`);
    assert.equal((got.json.page as { question: string }).question, text);
  });

  it('without the token or with a foreign Host, /mcp refuses before the SDK sees the request', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    assert.equal((await fetch(d.mcpUrl, { method: 'POST', headers, body: init })).status, 401);
    const unknownSession = await fetch(d.mcpUrl, { method: 'POST', headers: { ...headers, authorization: `Bearer ${d.token}`, 'mcp-session-id': 'nope' }, body: init });
    assert.equal(unknownSession.status, 404);
    const notInit = await fetch(d.mcpUrl, { method: 'POST', headers: { ...headers, authorization: `Bearer ${d.token}` }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    assert.equal(notInit.status, 400);
    // The SDK does not check Host; the daemon's guard does (DNS rebinding), even with the token.
    const foreign = await new Promise<number>((resolve, reject) => {
      const req = request(d.mcpUrl, { method: 'POST', headers: { ...headers, authorization: `Bearer ${d.token}`, host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(init);
    });
    assert.equal(foreign, 403);
  });

  it('/api/status counts pending pages and MCP sessions', async () => {
    const s = await d.api('GET', '/status');
    const counts = s.json.counts as Record<string, number>;
    assert.ok((counts.pagesPending ?? 0) >= 1);
    assert.ok((counts.mcpSessions ?? 0) >= 1);
    assert.equal(typeof counts.pagesExpiredUndecided, 'number');
  });
});
