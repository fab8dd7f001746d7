// Search through the real daemon and the built CLI (issue 18): Claude and Codex transcripts on disk are
// found by `muster search` and GET /api/search; an append is found within 2 s; a rewrite drops stale
// hits; a 50 MB single-line record is skipped and counted while the daemon keeps serving; bad queries
// are a 400 / usage error; a hit's position opens the same message through the messages API.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, openSync, writeSync, closeSync, writeFileSync, utimesSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { envFor, runCli, splitBoardUrl, startServe, tempHome, until, waitExit } from './kit.ts';
import { assistantLine, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { execRollout, TID, writeRollout } from '../../src/harnesses/codex/discovery/rollout-fixtures.test-support.ts';
import { connectMcp } from './pager-kit.ts';

const A = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';
const iso = (minutesAgo: number): string => new Date(Date.now() - minutesAgo * 60_000).toISOString();

interface Hit { role: string; at: string | null; snippet: string; position: number; marks: [number, number][] }
interface Result { session: { harness: string; id: string; cwd: string | null }; hits: Hit[] }

describe('search through the daemon', () => {
  const t = tempHome('muster-e2e-search-');
  const env = envFor(t.home, { TZ: 'UTC' });
  let daemon: ChildProcess;
  let base = '';
  let token = '';
  let file = '';

  before(async () => {
    file = writeTranscript(join(t.home, '.claude'), A, [
      userLine('where did we fix the flaky login test', { sessionId: A, ts: iso(30) }),
      assistantLine({ id: 'msg_1', requestId: 'req_1', sessionId: A, ts: iso(29) }),
    ]);
    writeRollout(join(t.home, '.codex'), TID, execRollout(TID, '/home/dev/project', 'tell codex about the migration plan'));
    const s = await startServe(env);
    daemon = s.child;
    ({ base, token } = splitBoardUrl(s.envelope.boardUrl));
  });

  after(async () => {
    daemon.kill('SIGTERM');
    await waitExit(daemon);
    t.cleanup();
  });

  const get = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const search = async (q: string): Promise<Result[]> => {
    const r = await get(`/api/search?q=${encodeURIComponent(q)}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.results as Result[];
  };

  it('muster search --json finds a prompt in each harness, grouped by session with marked snippets', async () => {
    const r = await runCli(['search', 'flaky login', '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout) as { ok: boolean; results: Result[] };
    assert.equal(body.ok, true);
    assert.equal(body.results.length, 1);
    assert.equal(body.results[0]?.session.id, A);
    const hit = body.results[0]?.hits[0];
    assert.equal(hit?.role, 'user');
    assert.equal(hit?.position, 0);
    assert.equal(hit?.snippet.slice(hit.marks[0]?.[0], hit.marks[0]?.[1]), 'flaky');
    const codex = await search('migration harness:codex');
    assert.equal(codex[0]?.session.id, TID);
    assert.equal(codex[0]?.session.cwd, '/home/dev/project');
    assert.equal((await search('hi role:assistant')).length, 2, 'both replies');
  });

  it('a hit opens the same message through GET /api/sessions/<harness>/<id>/messages and muster show --messages', async () => {
    const [hit] = (await search('"fake model"')).filter((r) => r.session.id === A).flatMap((r) => r.hits);
    assert.ok(hit);
    const page = await get(`/api/sessions/claude/${A}/messages?from=${hit.position}&limit=1`);
    assert.equal(page.status, 200);
    assert.deepEqual((page.body.messages as { position: number; role: string }[]).map((m) => [m.position, m.role]), [[hit.position, 'assistant']]);
    const show = await runCli(['show', A, '--messages', '--json'], env);
    assert.equal(show.code, 0, show.stderr);
    const env2 = JSON.parse(show.stdout) as { messages: { role: string; text: string }[]; total: number };
    assert.deepEqual(env2.messages.map((m) => m.role), ['user', 'assistant']);
    assert.equal((await get(`/api/sessions/codex/${TID}/messages`)).body.total, 2);
    assert.equal((await get(`/api/sessions/claude/not-an-id/messages`)).status, 400);
    assert.equal((await get(`/api/sessions/claude/${TID}/messages`)).status, 404);
  });

  it('MCP: the official SDK client lists and calls search_sessions; its REST twin answers the same', async () => {
    const client = await connectMcp({ mcpUrl: `${base}/mcp`, token });
    try {
      const tools = (await client.listTools()).tools.map((x) => x.name);
      assert.ok(tools.includes('search_sessions'), tools.join(', '));
      const r = await client.callTool({ name: 'search_sessions', arguments: { query: 'migration plan' } });
      assert.ok(!r.isError, JSON.stringify(r.content));
      const structured = r.structuredContent as { results: { session: { id: string; harness: string; cwd: string | null }; hits: { snippet: string; position: number }[] }[] };
      assert.deepEqual(structured.results.map((x) => [x.session.harness, x.session.id, x.session.cwd]), [['codex', TID, '/home/dev/project']]);
      assert.match(structured.results[0]?.hits[0]?.snippet ?? '', /migration plan/);
      const bad = await client.callTool({ name: 'search_sessions', arguments: { query: '"open' } });
      assert.equal(bad.isError, true);
      assert.match((bad.content as { text: string }[])[0]?.text ?? '', /^invalid_query: /);
      const twin = await fetch(`${base}/api/search`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: 'migration plan' }) });
      assert.equal(twin.status, 200);
      assert.deepEqual(((await twin.json()) as { results: unknown }).results, structured.results);
    } finally {
      await client.close();
    }
  });

  it('query syntax errors are a 400 invalid_query and a usage error, never FTS5 text', async () => {
    for (const q of ['"open', 'harness:vim x', '*', 'x since:someday']) {
      const r = await get(`/api/search?q=${encodeURIComponent(q)}`);
      assert.equal(r.status, 400, q);
      const error = r.body.error as { code: string; message: string };
      assert.equal(error.code, 'invalid_query');
      assert.doesNotMatch(error.message, /fts5|syntax error/i);
    }
    const cli = await runCli(['search', '"open'], env);
    assert.equal(cli.code, 2);
    assert.match(cli.stderr, /never closed/);
  });

  it('text appended to a live transcript is found within 2 s', async () => {
    appendFileSync(file, userLine('now look at zanzibar billing', { sessionId: A, ts: iso(1) }) + '\n');
    const started = Date.now();
    await until('the appended word is found', async () => ((await search('zanzibar')).length > 0 ? true : undefined), 2000);
    assert.ok(Date.now() - started <= 2000);
  });

  it('a 50 MB single-line record is skipped and counted while the daemon serves; what follows it is found', async () => {
    const before = await get('/api/diagnostics');
    const skippedBefore = (before.body.sources as { harness: string; linesSkipped: number }[]).find((s) => s.harness === 'claude')?.linesSkipped ?? 0;
    const fd = openSync(file, 'a');
    const chunk = Buffer.alloc(1024 * 1024, 'y');
    writeSync(fd, '{"type":"user","message":{"content":"');
    for (let i = 0; i < 50; i++) writeSync(fd, chunk);
    writeSync(fd, '"}}\n');
    writeSync(fd, userLine('after the monster line comes quokka', { sessionId: A, ts: iso(0) }) + '\n');
    closeSync(fd);
    const started = Date.now();
    const health = await get('/api/search?q=flaky');
    assert.equal(health.status, 200);
    await until('the word after the huge line is found', async () => ((await search('quokka')).length > 0 ? true : undefined), 10_000);
    const after = await get('/api/diagnostics');
    const skippedAfter = (after.body.sources as { harness: string; linesSkipped: number }[]).find((s) => s.harness === 'claude')?.linesSkipped ?? 0;
    assert.ok(skippedAfter > skippedBefore, `skipped ${skippedBefore} → ${skippedAfter}`);
    assert.ok(Date.now() - started < 10_000);
  });

  it('a truncated or rewritten transcript drops its stale hits', async () => {
    writeFileSync(file, userLine('only platypus remains', { sessionId: A, ts: iso(0) }) + '\n');
    utimesSync(file, new Date(), new Date(Date.now() + 2000));
    await until('the rewrite is indexed', async () => ((await search('platypus')).length > 0 ? true : undefined), 5000);
    assert.equal((await search('zanzibar')).length, 0);
    assert.equal((await search('flaky')).length, 0);
  });
});
