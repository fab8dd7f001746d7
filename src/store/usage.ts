/**
 * Usage records in SQLite: one row per API message (or turn), keyed by harness and message key, and
 * the budget alerts already sent. Records are written by the transcript index's flush, in the same
 * transaction as the index entries whose bytes they came from, so a crash never leaves an offset
 * past records that were not stored.
 */
import type Database from 'better-sqlite3';
import type { Harness } from '../core/session.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import type { UsageChange, UsageDelta, UsageRepository, UsageRollupRow } from '../usage/types.ts';

function sameRow(a: StoredRow, b: StoredRow): boolean {
  return a.session_id === b.session_id && a.at_ms === b.at_ms && a.model === b.model && a.input === b.input && a.output === b.output
    && a.cache_read === b.cache_read && a.cache_write === b.cache_write && a.reasoning === b.reasoning && a.cost_usd === b.cost_usd;
}

export const USAGE_TABLES_SQL = `
  CREATE TABLE usage_records (
    harness TEXT NOT NULL,
    key TEXT NOT NULL,
    session_id TEXT NOT NULL,
    rank INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    model TEXT NOT NULL,
    input INTEGER NOT NULL,
    output INTEGER NOT NULL,
    cache_read INTEGER NOT NULL,
    cache_write INTEGER NOT NULL,
    reasoning INTEGER NOT NULL,
    cost_usd REAL,
    PRIMARY KEY (harness, key)
  ) WITHOUT ROWID;
  CREATE INDEX usage_records_at ON usage_records(at_ms);
  CREATE TABLE usage_alerts (
    kind TEXT NOT NULL,
    period TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (kind, period)
  );
`;

/**
 * A message seen again keeps its largest counts (a content block's repeat may carry the final output
 * count) and goes to the session that made it: a lower rank (its own, not a fork's copy) takes it over.
 */
const UPSERT = `
  INSERT INTO usage_records(harness, key, session_id, rank, at_ms, model, input, output, cache_read, cache_write, reasoning, cost_usd)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT(harness, key) DO UPDATE SET
    session_id = CASE WHEN excluded.rank < usage_records.rank THEN excluded.session_id ELSE usage_records.session_id END,
    at_ms = CASE WHEN excluded.rank < usage_records.rank THEN excluded.at_ms ELSE usage_records.at_ms END,
    rank = MIN(excluded.rank, usage_records.rank),
    input = MAX(excluded.input, usage_records.input),
    output = MAX(excluded.output, usage_records.output),
    cache_read = MAX(excluded.cache_read, usage_records.cache_read),
    cache_write = MAX(excluded.cache_write, usage_records.cache_write),
    reasoning = MAX(excluded.reasoning, usage_records.reasoning),
    cost_usd = MAX(COALESCE(excluded.cost_usd, usage_records.cost_usd), COALESCE(usage_records.cost_usd, excluded.cost_usd))`;

interface StoredRow {
  session_id: string; rank: number; at_ms: number; model: string;
  input: number; output: number; cache_read: number; cache_write: number; reasoning: number; cost_usd: number | null;
}

/** A stored row as what it adds to the rollup: +1 for the row written, -1 for the row it replaced. */
function deltaOf(r: StoredRow, harness: Harness, key: string, sign: 1 | -1): UsageDelta {
  return {
    record: `${harness}\u0000${key}`,
    sessionId: r.session_id, harness, model: r.model, at: r.at_ms, count: sign,
    tokens: { input: sign * r.input, output: sign * r.output, cacheRead: sign * r.cache_read, cacheWrite: sign * r.cache_write, reasoning: sign * r.reasoning },
    recordedUsd: r.cost_usd === null ? 0 : sign * r.cost_usd,
    recorded: r.cost_usd === null ? 0 : sign,
  };
}

interface RollupSqlRow {
  session_id: string; harness: string; model: string; q: number;
  input: number; output: number; cache_read: number; cache_write: number; reasoning: number;
  usd: number | null; recorded: number; n: number;
}

export interface SqliteUsage extends UsageRepository {
  /**
   * Writes records; call inside the index's write transaction. Returns what changed in the stored
   * rows (each replaced row taken out, its merged successor put in), for listeners' rollups.
   */
  write(records: readonly UsageRecord[]): UsageDelta[];
  /** Tells listeners what changed (after the transaction committed). */
  notify(deltas: UsageDelta[]): void;
}

export function createSqliteUsageRepository(db: Database.Database, clock: () => number): SqliteUsage {
  const upsert = db.prepare(UPSERT);
  const insertNew = db.prepare(`INSERT OR IGNORE INTO usage_records(harness, key, session_id, rank, at_ms, model, input, output, cache_read, cache_write, reasoning, cost_usd)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const one = db.prepare<[string, string], StoredRow>('SELECT session_id, rank, at_ms, model, input, output, cache_read, cache_write, reasoning, cost_usd FROM usage_records WHERE harness = ? AND key = ?');
  const claim = db.prepare('INSERT OR IGNORE INTO usage_alerts(kind, period, at) VALUES (?, ?, ?)');
  const listeners = new Set<(change: UsageChange) => void>();
  const rollupSql = (where: string) => db.prepare<unknown[], RollupSqlRow>(`
    SELECT session_id, harness, model, at_ms / 900000 AS q,
      SUM(input) AS input, SUM(output) AS output, SUM(cache_read) AS cache_read, SUM(cache_write) AS cache_write,
      SUM(reasoning) AS reasoning, SUM(cost_usd) AS usd, COUNT(cost_usd) AS recorded, COUNT(*) AS n
    FROM usage_records WHERE at_ms >= ? AND at_ms < ?${where}
    GROUP BY session_id, harness, model, q`);
  const all = rollupSql('');
  const pageSql = db.prepare<[string, string, number], StoredRow & { harness: string; key: string }>(`
    SELECT harness, key, session_id, rank, at_ms, model, input, output, cache_read, cache_write, reasoning, cost_usd
    FROM usage_records WHERE (harness, key) > (?, ?) ORDER BY harness, key LIMIT ?`);
  const ofHarness = rollupSql(' AND harness = ?');
  return {
    write(records) {
      const deltas: UsageDelta[] = [];
      for (const r of records) {
        const t = r.tokens;
        const at = Math.round(r.at);
        // A key not stored yet (every record of a first start's index) is one statement: the row is
        // what was inserted. Only a key seen before pays for the read, the merge and the read back.
        if (insertNew.run(r.harness, r.key, r.sessionId, r.rank, at, r.model, t.input, t.output, t.cacheRead, t.cacheWrite, t.reasoning, r.costUsd).changes === 1) {
          const row: StoredRow = {
            session_id: r.sessionId, rank: r.rank, at_ms: at, model: r.model, input: t.input, output: t.output,
            cache_read: t.cacheRead, cache_write: t.cacheWrite, reasoning: t.reasoning, cost_usd: r.costUsd,
          };
          deltas.push(deltaOf(row, r.harness, r.key, 1));
          continue;
        }
        const before = one.get(r.harness, r.key);
        upsert.run(r.harness, r.key, r.sessionId, r.rank, at, r.model, t.input, t.output, t.cacheRead, t.cacheWrite, t.reasoning, r.costUsd);
        const after = one.get(r.harness, r.key);
        if (!after) continue;
        if (before && sameRow(before, after)) continue; // a repeat that changed nothing
        if (before) deltas.push(deltaOf(before, r.harness, r.key, -1));
        deltas.push(deltaOf(after, r.harness, r.key, 1));
      }
      return deltas;
    },
    notify(deltas) {
      if (deltas.length === 0) return;
      const change: UsageChange = { harnesses: [...new Set(deltas.map((d) => d.harness))], deltas };
      for (const l of listeners) {
        try {
          l(change);
        } catch {
          // A listener's failure is its own; the write already happened.
        }
      }
    },
    async rollup(range) {
      const from = range.fromMs ?? Number.MIN_SAFE_INTEGER;
      const to = range.toMs ?? Number.MAX_SAFE_INTEGER;
      const rows = range.harness ? ofHarness.all(from, to, range.harness) : all.all(from, to);
      return rows.map((r): UsageRollupRow => ({
        sessionId: r.session_id,
        harness: r.harness as Harness,
        model: r.model,
        quarter: r.q,
        tokens: { input: r.input, output: r.output, cacheRead: r.cache_read, cacheWrite: r.cache_write, reasoning: r.reasoning },
        recordedUsd: r.usd ?? 0,
        recorded: r.recorded,
        count: r.n,
      }));
    },
    async page(cursor, limit) {
      // The cursor is `<harness>\0<key>` of the last record handed out; '' sorts before every harness.
      const [h, k] = cursor === null ? ['', ''] : (cursor.split('\u0000', 2) as [string, string]);
      const rows = pageSql.all(h, k ?? '', limit);
      const last = rows.at(-1);
      return {
        records: rows.map((r) => deltaOf(r, r.harness as Harness, r.key, 1)),
        next: rows.length < limit || !last ? null : `${last.harness}\u0000${last.key}`,
      };
    },
    async claimAlert(kind, period) {
      return claim.run(kind, period, new Date(clock()).toISOString()).changes > 0;
    },
    onRecorded(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
