// Issue 7, Acceptance: 200 concurrent asks from 20 MCP sessions — all recorded, all answered, none
// crossed to the wrong caller. Each session is a distinct SDK client with its own wrapper session id.
import { it, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tempHome } from './kit.ts';
import { callTool, connectMcp, openSse, startPagerDaemon } from './pager-kit.ts';

const SESSIONS = 20;
const PER_SESSION = 10;

it('200 concurrent asks from 20 MCP sessions: every one recorded, answered, and returned to its own caller', async () => {
  const t = tempHome('muster-e2e-pager-load-');
  const d = await startPagerDaemon(t.home, { askWaitSeconds: 60 });
  const clients: Client[] = [];
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await d.stop();
    t.cleanup();
  });
  const sse = await openSse(d);
  const ids = Array.from({ length: SESSIONS }, () => randomUUID());
  for (const id of ids) clients.push(await connectMcp(d, { 'x-muster-session-id': id }));

  const calls = clients.flatMap((c, s) =>
    Array.from({ length: PER_SESSION }, (_, i) => {
      const question = `s${s}-q${i}`;
      return callTool(c, 'ask_operator', { question }, { timeout: 90_000 }).then((r) => ({ s, question, r }));
    }),
  );
  // Every page is visible to the operator; answer each with a text derived from its own question.
  const opened = await Promise.all(calls.map(() => sse.next('page.opened', () => true, 30_000).then((e) => e.data, (): Record<string, unknown> => ({}))));
  assert.equal(opened.filter((p) => 'id' in p).length, SESSIONS * PER_SESSION);
  const answers = await Promise.all(
    opened.map((p) => d.api('POST', `/pages/${p.id as string}/answer`, { text: `answer:${p.question as string}:${p.sessionId as string}` })),
  );
  assert.ok(answers.every((a) => a.status === 200));
  const results = await Promise.all(calls);
  sse.close();
  for (const { s, question, r } of results) {
    assert.equal(r.status, 'answered', JSON.stringify(r));
    assert.equal(r.answer, `answer:${question}:${ids[s]}`, 'the answer went back to the session that asked it');
  }
  const all = await d.api('GET', '/pages?limit=1000');
  const pages = all.json.pages as { sessionId: string; question: string; status: string }[];
  assert.equal(pages.length, SESSIONS * PER_SESSION);
  assert.ok(pages.every((p) => p.status === 'delivered'));
  for (const p of pages) assert.equal(p.sessionId, ids[Number(/^s(\d+)-/.exec(p.question)?.[1])]);
});
