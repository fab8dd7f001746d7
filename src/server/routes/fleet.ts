/**
 * Fleet membership over HTTP (the CLI's `muster fleet …` uses these):
 *   GET  /api/fleet                          → { ok, fleet }   joined or not, connection, outbox, hosts
 *   POST /api/fleet/join { url, name? }      → { ok, fleet }   503 fleet_unreachable: nothing was saved
 *   POST /api/fleet/leave                    → { ok, left, removedFromDatabase }
 * The URL is taken in the body (never a query string, never logged); every answer shows it redacted.
 */
import { readJsonObject } from '../body.ts';
import { optString } from '../input.ts';
import { MusterError } from '../../errors/index.ts';
import type { App } from '../env.ts';

export interface FleetAdmin {
  status(): unknown;
  join(url: string, name: string | undefined): Promise<unknown>;
  leave(): Promise<{ left: boolean; removedFromDatabase: boolean }>;
}

export function fleetRoutes(opts: { fleet: FleetAdmin }) {
  return (app: App) => {
    app.get('/api/fleet', (c) => c.json({ ok: true, fleet: opts.fleet.status() }));
    app.post('/api/fleet/join', async (c) => {
      const b = await readJsonObject(c);
      const url = optString(b.url, 'url', 4096);
      if (!url) throw new MusterError('invalid_body', 'send { "url": "postgres://…", "name"?: "<host name>" }');
      const fleet = await opts.fleet.join(url, optString(b.name, 'name', 64));
      return c.json({ ok: true, fleet });
    });
    app.post('/api/fleet/leave', async (c) => c.json({ ok: true, ...(await opts.fleet.leave()) }));
  };
}
