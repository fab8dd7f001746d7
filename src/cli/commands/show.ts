/** `muster show <id>`: one session, { ok: true, session }. */
import { MusterError } from '../../errors/index.ts';
import { isSessionId } from '../../harnesses/registry.ts';
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';

export async function run({ args, env }: CommandContext): Promise<number> {
  const id = args[0];
  if (!id) throw usageError('muster show <sessionId>');
  if (!isSessionId(id)) throw new MusterError('invalid_id', `not a session id: ${JSON.stringify(id)}`);
  const body = await callApi(clientContext(env), 'GET', `/sessions/${encodeURIComponent(id)}`);
  printOk({ session: body.session });
  return 0;
}
