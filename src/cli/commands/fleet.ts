/**
 * `muster fleet join <postgres-url> [--name NAME] | leave | status` — this host's membership of a fleet:
 *   join   → { ok, fleet }   the daemon connects, creates or upgrades the schema, and only then saves the
 *            URL (MUSTER_HOME/fleet.json, 0600). `-` reads the URL from stdin, keeping its password off
 *            the command line (which other local users can read in /proc while it runs).
 *   leave  → { ok, left, removedFromDatabase }
 *   status → { ok, fleet }   from the daemon when it runs; else from MUSTER_HOME, with running: false.
 * The URL is shown with its password replaced by `***`, never in full.
 */
import { readFileSync } from 'node:fs';
import { callApi, clientContext, locateDaemon } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';
import { fleetFiles, readFleetConfig, defaultHostName } from '../../fleet/config.ts';
import { redactFleetUrl } from '../../fleet/url.ts';

const USAGE = 'muster fleet join <postgres-url|-> [--name NAME] | leave | status';

export async function run(ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = ctx.args;
  const api = clientContext(ctx.env);
  switch (sub) {
    case 'join': {
      if (rest.length !== 1 || !rest[0]) throw usageError('muster fleet join <postgres-url|-> [--name NAME]');
      const url = rest[0] === '-' ? readFileSync(0, 'utf8').trim() : rest[0];
      const name = typeof ctx.flags.name === 'string' ? ctx.flags.name : undefined;
      printOk({ fleet: (await callApi(api, 'POST', '/fleet/join', { url, ...(name !== undefined ? { name } : {}) })).fleet });
      return 0;
    }
    case 'leave':
      if (rest.length > 0) throw usageError('muster fleet leave');
      printOk({ ...(await callApi(api, 'POST', '/fleet/leave')) });
      return 0;
    case 'status': {
      if (rest.length > 0) throw usageError('muster fleet status');
      const loc = await locateDaemon(api);
      if (loc.state === 'running') {
        printOk({ running: true, fleet: (await callApi(api, 'GET', '/fleet')).fleet });
        return 0;
      }
      // No daemon: what MUSTER_HOME (or the environment) says, without connecting anywhere.
      const c = readFleetConfig(fleetFiles(api.paths.home), ctx.env);
      printOk({ running: false, fleet: c ? { joined: true, connected: false, url: redactFleetUrl(c.url), source: c.source, host: { name: c.name } } : { joined: false, host: { name: defaultHostName() } } });
      return 0;
    }
    default:
      throw usageError(USAGE);
  }
}
