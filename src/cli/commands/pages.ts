/**
 * `muster pages [--pending] [--status S] [--kind question|notice] [--session ID] [--limit N]`:
 * the operator's inbox, newest first, as { ok, pages: [Page…], counts }. --pending is --status pending.
 */
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';

export async function run({ args, flags, env }: CommandContext): Promise<number> {
  if (args.length > 0) throw usageError('muster pages [--pending] [--status S] [--kind K] [--session ID] [--host NAME] [--limit N]');
  const q = new URLSearchParams();
  if (flags.pending) q.set('status', 'pending');
  if (typeof flags.status === 'string') q.set('status', flags.status);
  if (typeof flags.kind === 'string') q.set('kind', flags.kind);
  if (typeof flags.session === 'string') q.set('sessionId', flags.session);
  if (typeof flags.host === 'string') q.set('host', flags.host);
  if (typeof flags.limit === 'string') q.set('limit', flags.limit);
  // The daemon validates every filter (400 invalid_argument with the allowed values).
  const body = await callApi(clientContext(env), 'GET', `/pages${q.size ? `?${q}` : ''}`);
  printOk({ pages: body.pages ?? [], counts: body.counts ?? {} });
  return 0;
}
