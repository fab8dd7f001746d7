/**
 * `muster ls [--live] [--harness H] [--status S] [--cwd DIR] [--json]`: a readable table on a
 * terminal; with --json or when piped, the envelope { ok: true, sessions: [Session…] }.
 */
import { callApi, callApiInto, clientContext } from '../daemon-client.ts';
import type { CommandContext } from '../command.ts';
import { renderSessionTable } from '../table.ts';
import type { Session } from '../../core/session.ts';

export async function run({ flags, env, tty }: CommandContext): Promise<number> {
  const q = new URLSearchParams();
  if (flags.live) q.set('live', 'true');
  for (const k of ['harness', 'status', 'cwd', 'host'] as const) if (typeof flags[k] === 'string') q.set(k, flags[k] as string);
  const path = `/sessions${q.size ? `?${q}` : ''}`;
  if (tty && !flags.json) {
    const body = await callApi(clientContext(env), 'GET', path);
    process.stdout.write(`${renderSessionTable((body.sessions ?? []) as Session[], process.stdout.columns ?? 120)}\n`);
    return 0;
  }
  // The daemon's answer is already the envelope { ok: true, sessions } on one line: printed as it comes.
  await callApiInto(clientContext(env), 'GET', path, process.stdout);
  await new Promise<void>((resolve, reject) => process.stdout.write('\n', (e) => (e ? reject(e) : resolve())));
  return 0;
}
