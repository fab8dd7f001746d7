/** `muster focus <id>`: bring a live session's pane to the front; { ok, outcome: 'focused', pane, client }. */
import { MusterError } from '../../errors/index.ts';
import { isSessionId } from '../../harnesses/registry.ts';
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import { pidFlag } from './pid-flag.ts';
import type { CommandContext } from '../command.ts';

export async function run({ args, flags, env }: CommandContext): Promise<number> {
  const id = args[0];
  if (!id || args.length > 1) throw usageError('muster focus <sessionId> [--pid N]');
  if (!isSessionId(id)) throw new MusterError('invalid_id', `not a session id: ${JSON.stringify(id)}`);
  const pid = pidFlag(flags.pid);
  const body = await callApi(clientContext(env), 'POST', '/focus', { sessionId: id, via: 'cli', ...pid });
  printOk({ outcome: body.outcome, pane: body.pane, client: body.client ?? null });
  return 0;
}
