/** Spend: GET /api/usage?by=&since=&until=&harness=&tz=&split=&limit= → { ok, …UsageReport }. */
import type { Hub } from '../../hub/index.ts';
import { parseUsageQuery } from '../../usage/index.ts';
import type { UsageService } from '../../usage/index.ts';
import type { App } from '../env.ts';

export interface UsageRouteOptions {
  usage: UsageService;
  hub: Pick<Hub, 'ready'>;
  /** Zone of a request without `tz`: the daemon's (asked at the request: finding it loads ICU's zone data). */
  defaultTz(): string;
}

export function usageRoutes(opts: UsageRouteOptions) {
  return (app: App) => {
    app.get('/api/usage', async (c) => {
      const query = parseUsageQuery(c.req.query(), c.req.query('tz') ?? opts.defaultTz());
      // Records come with the first scan; a report before it would be a partial one.
      await opts.hub.ready();
      return c.json({ ok: true, ...(await opts.usage.report(query)) });
    });
  };
}
