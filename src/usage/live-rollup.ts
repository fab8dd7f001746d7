/**
 * The rollup kept in memory: read from the store once (on the first report), then kept current with
 * each write's deltas, so a report walks grouped rows instead of asking SQLite to group every record
 * again (200,000 records grouped by SQLite cost seconds on a loaded machine; walking the kept rows,
 * milliseconds).
 */
import type { UsageChange, UsageRange, UsageRepository, UsageRollupRow } from './types.ts';

const QUARTER_MS = 900_000;
const SEP = '\u0000';

export interface LiveRollup {
  /** Rows within the range (all of them when it is open), current as of the last committed write. */
  rows(range: UsageRange): Promise<UsageRollupRow[]>;
  /** Applies a committed write's deltas (ignored until the first read, which sees them in the store). */
  apply(change: UsageChange): void;
}

export function createLiveRollup(repo: Pick<UsageRepository, 'rollup'>): LiveRollup {
  let rows: Map<string, UsageRollupRow> | null = null;
  let loading: Promise<Map<string, UsageRollupRow>> | null = null;
  const keyOf = (r: Pick<UsageRollupRow, 'sessionId' | 'harness' | 'model' | 'quarter'>): string => `${r.sessionId}${SEP}${r.harness}${SEP}${r.model}${SEP}${r.quarter}`;

  const load = (): Promise<Map<string, UsageRollupRow>> =>
    (loading ??= repo.rollup({}).then((all) => {
      const m = new Map<string, UsageRollupRow>();
      for (const r of all) m.set(keyOf(r), r);
      rows = m;
      return m;
    }));

  return {
    async rows(range) {
      const m = rows ?? (await load());
      const from = range.fromMs ?? -Infinity;
      const to = range.toMs ?? Infinity;
      const out: UsageRollupRow[] = [];
      for (const r of m.values()) {
        const at = r.quarter * QUARTER_MS;
        // A quarter hour lies wholly inside any range cut at local midnights (zones are multiples of 15 minutes).
        if (at < from || at >= to || (range.harness !== undefined && r.harness !== range.harness)) continue;
        out.push(r);
      }
      return out;
    },
    apply(change) {
      if (!rows) return;
      for (const d of change.deltas) {
        const quarter = Math.floor(d.at / QUARTER_MS);
        const key = keyOf({ sessionId: d.sessionId, harness: d.harness, model: d.model, quarter });
        let r = rows.get(key);
        if (!r) {
          r = { sessionId: d.sessionId, harness: d.harness, model: d.model, quarter, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, recordedUsd: 0, recorded: 0, count: 0 };
          rows.set(key, r);
        }
        // Rows are replaced, never edited in place: a report being built keeps a consistent view.
        const next: UsageRollupRow = {
          ...r,
          tokens: {
            input: r.tokens.input + d.tokens.input, output: r.tokens.output + d.tokens.output, cacheRead: r.tokens.cacheRead + d.tokens.cacheRead,
            cacheWrite: r.tokens.cacheWrite + d.tokens.cacheWrite, reasoning: r.tokens.reasoning + d.tokens.reasoning,
          },
          recordedUsd: r.recordedUsd + d.recordedUsd,
          recorded: r.recorded + d.recorded,
          count: r.count + d.count,
        };
        if (next.count <= 0) rows.delete(key);
        else rows.set(key, next);
      }
    },
  };
}
