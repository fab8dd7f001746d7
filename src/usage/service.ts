/**
 * The usage service: reports over the store's usage records for the HTTP route, the board and the
 * TUI, and today's total for budget alerts.
 */
import { buildReport } from './report.ts';
import type { SessionFacts, UsageQuery, UsageReport, UsageRepository } from './types.ts';
import { createLiveRollup } from './live-rollup.ts';
import { createZone, nextDay } from './zone.ts';
import type { Zone } from './zone.ts';

export interface UsageServiceOptions {
  repo: UsageRepository;
  /** What the hub knows of a session (repo, branch, title); undefined for one it does not list. */
  session(id: string): SessionFacts | undefined;
  /** Records per page of the first read of the store. Default: 5000. */
  pageSize?: number;
}

export interface UsageService {
  /** The report for `query`. Callers must not modify it: an unchanged report is answered again as it is. */
  report(query: UsageQuery): Promise<UsageReport>;
  /** Stops following the store's writes. */
  close(): void;
}

/** Zones kept (each keeps its offsets and the days of the quarter hours it has seen) and reports kept. */
const KEEP = 16;

/** Reports that use what the hub knows of sessions (titles, repos) change without a usage write: never kept. */
const usesSessionFacts = (q: UsageQuery): boolean => q.by === 'session' || q.by === 'repo' || q.split === 'repo';

export function createUsageService(opts: UsageServiceOptions): UsageService {
  const live = createLiveRollup(opts.repo, opts.pageSize);
  // Every client refetches on `usage.recorded` (board tabs, the TUI's line, `muster usage`): the same
  // report is built once per write, not once per client. Cleared by every committed write.
  const kept = new Map<string, UsageReport>();
  let writes = 0;
  const unsubscribe = opts.repo.onRecorded((change) => {
    writes++;
    kept.clear();
    live.apply(change);
  });
  const zones = new Map<string, Zone>();
  const zoneOf = (tz: string): Zone => {
    let z = zones.get(tz);
    if (!z) {
      if (zones.size >= KEEP) zones.clear();
      zones.set(tz, (z = createZone(tz)));
    }
    return z;
  };
  return {
    close: unsubscribe,
    async report(query) {
      const key = usesSessionFacts(query) ? null : JSON.stringify(query);
      const hit = key === null ? undefined : kept.get(key);
      if (hit) return hit;
      const seen = writes;
      const zone = zoneOf(query.tz);
      const fromMs = query.since !== undefined ? zone.startOfDay(query.since) : undefined;
      const toMs = query.until !== undefined ? zone.startOfDay(nextDay(query.until)) : undefined;
      const rows = await live.rows({ fromMs, toMs, harness: query.harness });
      const report = buildReport({ query, zone, rows, session: opts.session });
      // Kept only when no write came while the rows were read (rows() may wait for the first read of the store).
      if (key !== null && seen === writes) {
        if (kept.size >= KEEP) kept.clear();
        kept.set(key, report);
      }
      return report;
    },
  };
}
