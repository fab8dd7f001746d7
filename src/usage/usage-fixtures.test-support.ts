/** Test helpers of the Spend domain: usage records and a real in-memory SQLite store to roll them up. */
import { openSqliteStore } from '../store/index.ts';
import type { Store } from '../store/index.ts';
import type { Harness } from '../core/session.ts';
import type { UsageRecord } from '../core/usage-record.ts';

let n = 0;

export function record(o: Partial<Omit<UsageRecord, 'tokens'>> & { iso: string; input?: number; output?: number; cacheRead?: number; cacheWrite?: number }): UsageRecord {
  return {
    harness: o.harness ?? ('claude' as Harness),
    key: o.key ?? `k${++n}`,
    sessionId: o.sessionId ?? 's1',
    rank: o.rank ?? 0,
    at: Date.parse(o.iso),
    model: o.model ?? 'claude-sonnet-4-5-20250929',
    tokens: { input: o.input ?? 1_000_000, output: o.output ?? 0, cacheRead: o.cacheRead ?? 0, cacheWrite: o.cacheWrite ?? 0, reasoning: 0 },
    costUsd: o.costUsd ?? null,
  };
}

/** A store holding `records`, written through the transcript index as the sources write them. */
export async function storeWith(records: UsageRecord[]): Promise<Store> {
  const store = openSqliteStore({ path: ':memory:' });
  store.transcriptIndex.put({ path: '/t/x.jsonl', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: {}, usage: records });
  await new Promise((r) => setImmediate(r)); // the index writes once per tick
  return store;
}
