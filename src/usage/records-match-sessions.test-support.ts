/**
 * Test helper shared by the harnesses' usage-record tests: a source reading through a real store's
 * transcript index, then the report by session from that store compared with each Session's tokens.
 */
import assert from 'node:assert/strict';
import { openSqliteStore } from '../store/index.ts';
import type { TranscriptIndex } from '../discovery/contract.ts';
import type { Session } from '../core/session.ts';
import { createUsageService } from './service.ts';

export async function assertRecordsMatchSessions(list: (index: TranscriptIndex) => Promise<Session[]>): Promise<Session[]> {
  const store = openSqliteStore({ path: ':memory:' });
  try {
    const sessions = await list(store.transcriptIndex);
    await new Promise((r) => setImmediate(r));
    const usage = createUsageService({ repo: store.usage, session: () => undefined });
    const rows = new Map((await usage.report({ by: 'session', tz: 'UTC' })).rows.map((r) => [r.key, r]));
    for (const s of sessions) {
      const r = rows.get(s.id);
      const t = r ? { input: r.tokens.input, output: r.tokens.output, cacheRead: r.tokens.cacheRead, cacheWrite: r.tokens.cacheWrite } : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      assert.deepEqual(t, s.tokens, `${s.harness} ${s.id}: records by session = Session.tokens`);
    }
    usage.close();
    return sessions;
  } finally {
    store.close();
  }
}
