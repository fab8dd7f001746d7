/**
 * Usage records of OpenCode's SQLite store: one per assistant message with tokens, keyed by session
 * and message id. Read when a session is re-read (it changed), only for messages updated since the
 * last read (`usageMark`, kept in the session's summary), so a long session is not read whole at
 * every turn. OpenCode's own `cost` (USD, from its price list) is used when it is above 0; 0 is what
 * it writes for a model it has no price for, which is "unknown" here, never $0.
 */
import type { Database as Db } from 'better-sqlite3';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { count, numberOrNull, stringOrNull } from './summary.ts';

type Row = Record<string, unknown>;

export interface MessageUsageReader {
  /** Records of `sessionId`'s assistant messages updated at or after `sinceMs`, and the new mark. */
  read(sessionId: string, sinceMs: number): { records: UsageRecord[]; mark: number };
}

export function createMessageUsageReader(db: Db): MessageUsageReader {
  const cols = new Set((db.pragma('table_info(message)') as { name: string }[]).map((c) => c.name));
  const updated = cols.has('time_updated') ? 'time_updated' : 'time_created';
  const q = db.prepare(`SELECT id, ${updated} AS tu, time_created AS tc,
      json_extract(data, '$.modelID') AS model, json_extract(data, '$.time.created') AS created,
      json_extract(data, '$.tokens.input') AS i, json_extract(data, '$.tokens.output') AS o, json_extract(data, '$.tokens.reasoning') AS r,
      json_extract(data, '$.tokens.cache.read') AS cr, json_extract(data, '$.tokens.cache.write') AS cw, json_extract(data, '$.cost') AS cost
    FROM message WHERE session_id = ? AND ${updated} >= ? AND json_valid(data) AND json_extract(data, '$.role') = 'assistant'`);
  return {
    read(sessionId, sinceMs) {
      const records: UsageRecord[] = [];
      let mark = sinceMs;
      for (const m of q.all(sessionId, sinceMs) as Row[]) {
        mark = Math.max(mark, numberOrNull(m.tu) ?? 0);
        const r = usageRecordOf(sessionId, m);
        if (r) records.push(r);
      }
      return { records, mark };
    },
  };
}

/**
 * One assistant message's usage record, from its extracted fields (id, tc: the row's time_created,
 * model, created, i, o, r, cr, cw, cost); null when it has no time or no tokens.
 */
export function usageRecordOf(sessionId: string, m: Row): UsageRecord | null {
  const at = numberOrNull(m.created) ?? numberOrNull(m.tc);
  const reasoning = count(m.r);
  const tokens = { input: count(m.i), output: count(m.o) + reasoning, cacheRead: count(m.cr), cacheWrite: count(m.cw), reasoning };
  if (at === null || tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite === 0) return null;
  const cost = numberOrNull(m.cost);
  return { harness: 'opencode', key: `${sessionId}:${String(m.id)}`, sessionId, rank: 0, at, model: stringOrNull(m.model) ?? '', tokens, costUsd: cost !== null && cost > 0 ? cost : null };
}
