/**
 * `muster ls [--live] [--harness H] [--status S] [--cwd DIR] [--json]`: a readable table on a
 * terminal; with --json or when piped, the envelope { ok: true, sessions: [Session…] }.
 */
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk } from '../output.ts';
import type { CommandContext } from '../command.ts';
import { renderSessionTable } from '../table.ts';
import type { Session } from '../../sources/session.ts';

export async function run({ flags, env, tty }: CommandContext): Promise<number> {
  const q = new URLSearchParams();
  if (flags.live) q.set('live', 'true');
  for (const k of ['harness', 'status', 'cwd'] as const) if (typeof flags[k] === 'string') q.set(k, flags[k] as string);
  const body = await callApi(clientContext(env), 'GET', `/sessions${q.size ? `?${q}` : ''}`);
  const sessions = (body.sessions ?? []) as Session[];
  if (tty && !flags.json) {
    process.stdout.write(`${renderSessionTable(sessions, process.stdout.columns ?? 120)}\n`);
    return 0;
  }
  printOk({ sessions });
  return 0;
}
