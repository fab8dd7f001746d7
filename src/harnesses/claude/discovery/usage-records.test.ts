/**
 * Usage records of Claude transcripts, through the real source and the real store: one message once
 * across a resume (the file read again from where it stopped) and a fork (its copies of the parent's
 * messages), content-block repeats included; the report by session matches each Session's tokens.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createClaudeSource } from './source.ts';
import { openSqliteStore } from '../../../store/index.ts';
import { createUsageService } from '../../../usage/index.ts';
import { assistantLine, SID, SID2, tempHome, userLine, writeTranscript } from './claude-fixtures.test-support.ts';

const FORK = SID2;
const t = (s: number): string => new Date(Date.parse('2026-12-01T11:55:27.000Z') + s * 1000).toISOString();
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('claude usage records', () => {
  const homes: string[] = [];
  after(() => { for (const h of homes) fs.rmSync(h, { recursive: true, force: true }); });

  it('counts each API message once across a resume, a fork and repeated content blocks', async () => {
    const home = tempHome();
    homes.push(home);
    const store = openSqliteStore({ path: ':memory:' });
    const source = createClaudeSource({ home, proc: createFakeProc(), git: { read: () => ({ repoRoot: null, branch: null }) }, index: store.transcriptIndex });
    const usage = createUsageService({ repo: store.usage, session: () => undefined });
    const first = [
      userLine('first turn', { ts: t(0) }),
      // One API message written as two records (tool_use, then text), the second with the final output count.
      assistantLine({ id: 'msg_1', requestId: 'req_1', input: 100, output: 4, ts: t(1), content: 'tool_use' }),
      assistantLine({ id: 'msg_1', requestId: 'req_1', input: 100, output: 10, ts: t(1) }),
    ];
    const file = writeTranscript(home, SID, first);
    await source.list();
    await tick();
    // The session is resumed: its file grows and is read on from where it stopped.
    fs.appendFileSync(file, [userLine('second turn', { ts: t(60) }), assistantLine({ id: 'msg_2', requestId: 'req_2', input: 200, output: 20, ts: t(61), model: 'claude-haiku-4-5-20251001' })].map((l) => `${l}\n`).join(''));
    // … and forked: the fork's file copies both messages (marked with the parent's id), then makes its own.
    writeTranscript(home, FORK, [
      userLine('first turn', { ts: t(0), sessionId: FORK }),
      assistantLine({ id: 'msg_1', requestId: 'req_1', input: 100, output: 10, ts: t(1), sessionId: FORK, requestSessionId: SID }),
      assistantLine({ id: 'msg_2', requestId: 'req_2', input: 200, output: 20, ts: t(61), sessionId: FORK, requestSessionId: SID, model: 'claude-haiku-4-5-20251001' }),
      userLine('fork turn', { ts: t(120), sessionId: FORK }),
      assistantLine({ id: 'msg_3', requestId: 'req_3', input: 300, output: 30, ts: t(121), sessionId: FORK }),
    ]);
    const sessions = await source.list();
    await tick();
    // A later scan that reads nothing new adds nothing.
    await source.list();
    await tick();

    const byDay = await usage.report({ by: 'day', tz: 'UTC' });
    assert.equal(byDay.totals.messages, 3);
    assert.deepEqual(byDay.totals.tokens, { input: 600, output: 60, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    const bySession = await usage.report({ by: 'session', tz: 'UTC' });
    for (const s of sessions) {
      const row = bySession.rows.find((r) => r.key === s.id);
      assert.deepEqual(row && { input: row.tokens.input, output: row.tokens.output, cacheRead: row.tokens.cacheRead, cacheWrite: row.tokens.cacheWrite }, s.tokens, s.id);
    }
    // Each turn at its own model's price: sonnet 4.5 $3/$15, haiku 4.5 $1/$5 per million.
    const byModel = await usage.report({ by: 'model', tz: 'UTC' });
    assert.deepEqual(byModel.rows.map((r) => [r.key, r.costUsd]), [['claude-sonnet-4-5-20250929', (400 * 3 + 40 * 15) / 1e6], ['claude-haiku-4-5-20251001', (200 * 1 + 20 * 5) / 1e6]]);
    store.close();
  });
});
