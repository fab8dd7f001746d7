/**
 * The rollup kept in memory: read from the store once (on the first report), then kept current with
 * each write's deltas, so a report walks grouped rows instead of asking SQLite to group every record
 * again (200,000 records grouped by SQLite cost seconds on a loaded machine; walking the kept rows,
 * milliseconds). The first read goes page by page, yielding between pages, so a large history never
 * holds the daemon's event loop for long.
 */
import { costOf } from './figures.ts';
import type { UsageChange, UsageDelta, UsageRange, UsageRepository, UsageRollupRow } from './types.ts';

const QUARTER_MS = 900_000;
const SEP = '\u0000';

export interface LiveRollup {
  /** Rows within the range (all of them when it is open), current as of the last committed write. */
  rows(range: UsageRange): Promise<UsageRollupRow[]>;
  /** Applies a committed write's deltas (ignored until the first read, which sees them in the store). */
  apply(change: UsageChange): void;
}

/** Records read per page of the first read. Default of `pageSize`. */
const PAGE = 5000;
const yieldTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

export function createLiveRollup(repo: Pick<UsageRepository, 'page'>, pageSize = PAGE): LiveRollup {
  let rows: Map<string, UsageRollupRow> | null = null;
  const sessionNos = new Map<string, number>();
  const add = (m: Map<string, UsageRollupRow>, deltas: readonly UsageDelta[]): void => addDeltas(m, deltas, sessionNos);
  let loading: Promise<Map<string, UsageRollupRow>> | null = null;
  // Writes committed while the first read is under way: a record the read had already passed needs its
  // delta; one it had not reached yet is read in its new version by a later page, and its delta would count twice.
  let read: string | null = null; // the last record read so far ('' before the first page)
  const pending: { upTo: string; deltas: readonly UsageDelta[] }[] = [];
  const load = (): Promise<Map<string, UsageRollupRow>> =>
    (loading ??= (async () => {
      const m = new Map<string, UsageRollupRow>();
      let cursor: string | null = null;
      read = '';
      do {
        const page = await repo.page(cursor, pageSize);
        add(m, page.records);
        const last = page.records.at(-1);
        if (last) read = last.record;
        cursor = page.next;
        if (cursor !== null) await yieldTurn();
      } while (cursor !== null);
      // Keys are compared as JS strings, as SQLite orders them for ASCII ids (a non-ASCII key may be off by one page).
      for (const p of pending.splice(0)) add(m, p.deltas.filter((d) => d.record <= p.upTo));
      rows = m;
      return m;
    })());

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
      if (rows) add(rows, change.deltas);
      else if (read !== null) pending.push({ upTo: read, deltas: change.deltas });
    },
  };

}

const keyOf = (r: Pick<UsageRollupRow, 'sessionId' | 'harness' | 'model' | 'quarter'>): string => `${r.sessionId}${SEP}${r.harness}${SEP}${r.model}${SEP}${r.quarter}`;

/** Adds deltas into the rows. Rows are replaced, never edited in place: a report being built keeps a consistent view. */
function addDeltas(rows: Map<string, UsageRollupRow>, deltas: readonly UsageDelta[], sessionNos: Map<string, number>): void {
  for (const d of deltas) {
    const quarter = Math.floor(d.at / QUARTER_MS);
    const key = keyOf({ sessionId: d.sessionId, harness: d.harness, model: d.model, quarter });
    const r = rows.get(key);
    const t = r?.tokens;
    const next: UsageRollupRow = {
      sessionId: d.sessionId, harness: d.harness, model: d.model, quarter,
      tokens: {
        input: (t?.input ?? 0) + d.tokens.input, output: (t?.output ?? 0) + d.tokens.output, cacheRead: (t?.cacheRead ?? 0) + d.tokens.cacheRead,
        cacheWrite: (t?.cacheWrite ?? 0) + d.tokens.cacheWrite, reasoning: (t?.reasoning ?? 0) + d.tokens.reasoning,
      },
      recordedUsd: (r?.recordedUsd ?? 0) + d.recordedUsd,
      recorded: (r?.recorded ?? 0) + d.recorded,
      count: (r?.count ?? 0) + d.count,
      sessionNo: r?.sessionNo ?? numberOf(sessionNos, d.sessionId),
      cost: null,
    };
    // Worked out once per change of the row, not once per report (rows are replaced, never edited).
    next.cost = costOf(next);
    if (next.count <= 0) rows.delete(key);
    else rows.set(key, next);
  }
}

function numberOf(sessionNos: Map<string, number>, id: string): number {
  let n = sessionNos.get(id);
  if (n === undefined) sessionNos.set(id, (n = sessionNos.size));
  return n;
}
