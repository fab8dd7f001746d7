/**
 * `muster usage [--by day|week|month|session|model|harness|repo] [--since DATE] [--until DATE]
 * [--harness H] [--tz ZONE] [--json]`: spend from the daemon's usage records. A table on a terminal;
 * with --json or when piped, the envelope `{ ok, by, tz, rows, totals, prices, … }` as GET /api/usage
 * answers it. Days are cut in this terminal's time zone unless --tz names another.
 */
import { callApi, callApiInto, clientContext } from '../daemon-client.ts';
import type { CommandContext } from '../command.ts';
import { usageError } from '../output.ts';
import { renderUsageTable } from '../usage-table.ts';
import type { UsageReport } from '../../usage/types.ts';
import { existsSync, readlinkSync } from 'node:fs';
import { terminalTimeZone, type ZonePorts } from '../../usage/zone.ts';

export async function run({ args, flags, env, tty }: CommandContext): Promise<number> {
  if (args.length > 0) throw usageError(`usage takes no arguments (got '${args[0]}')`);
  const q = new URLSearchParams();
  for (const k of ['by', 'since', 'until', 'harness'] as const) if (typeof flags[k] === 'string') q.set(k, flags[k] as string);
  q.set('tz', typeof flags.tz === 'string' ? flags.tz : terminalTimeZone(systemZonePorts(env)));
  const path = `/usage?${q}`;
  if (tty && !flags.json) {
    const body = (await callApi(clientContext(env), 'GET', path)) as unknown as UsageReport;
    process.stdout.write(`${renderUsageTable(body, process.stdout.columns ?? 120)}\n`);
    return 0;
  }
  await callApiInto(clientContext(env), 'GET', path, process.stdout);
  await new Promise<void>((resolve, reject) => process.stdout.write('\n', (e) => (e ? reject(e) : resolve())));
  return 0;
}

/** The terminal's zone as read from `env` and this machine's files (usage/zone.ts). */
function systemZonePorts(env: NodeJS.ProcessEnv): ZonePorts {
  return {
    env,
    readLink(path) {
      try {
        return readlinkSync(path);
      } catch {
        return undefined;
      }
    },
    exists: existsSync,
  };
}
