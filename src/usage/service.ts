/**
 * The usage service: reports over the store's usage records for the HTTP route, the board and the
 * TUI, and today's total for budget alerts.
 */
import { buildReport } from './report.ts';
import type { SessionFacts, UsageQuery, UsageReport, UsageRepository } from './types.ts';
import { createLiveRollup } from './live-rollup.ts';
import { createZone, nextDay } from './zone.ts';

export interface UsageServiceOptions {
  repo: UsageRepository;
  /** What the hub knows of a session (repo, branch, title); undefined for one it does not list. */
  session(id: string): SessionFacts | undefined;
  /** Records per page of the first read of the store. Default: 5000. */
  pageSize?: number;
}

export interface UsageService {
  report(query: UsageQuery): Promise<UsageReport>;
  /** Stops following the store's writes. */
  close(): void;
}

export function createUsageService(opts: UsageServiceOptions): UsageService {
  const live = createLiveRollup(opts.repo, opts.pageSize);
  const unsubscribe = opts.repo.onRecorded((change) => live.apply(change));
  return {
    close: unsubscribe,
    async report(query) {
      const zone = createZone(query.tz);
      const fromMs = query.since !== undefined ? zone.startOfDay(query.since) : undefined;
      const toMs = query.until !== undefined ? zone.startOfDay(nextDay(query.until)) : undefined;
      const rows = await live.rows({ fromMs, toMs, harness: query.harness });
      return buildReport({ query, zone, rows, session: opts.session });
    },
  };
}
