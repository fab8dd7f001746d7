/**
 * `muster end <id>`: end a live session with its harness's clean signal; { ok, ended: true, id }.
 * The daemon re-verifies the process first: a reused pid is never signalled (409 not_running).
 */
import { MusterError } from '../../errors/index.ts';
import { isSessionId } from '../../harnesses/registry.ts';
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import { pidFlag } from './pid-flag.ts';
import type { CommandContext } from '../command.ts';

export async function run({ args, flags, env }: CommandContext): Promise<number> {
  const id = args[0];
  if (!id || args.length > 1) throw usageError('muster end <sessionId> [--pid N]');
  if (!isSessionId(id)) throw new MusterError('invalid_id', `not a session id: ${JSON.stringify(id)}`);
  const pid = pidFlag(flags.pid);
  // 204 No Content: the daemon answers nothing on success.
  await callApi(clientContext(env), 'POST', '/end', { sessionId: id, via: 'cli', ...pid });
  printOk({ ended: true, id });
  return 0;
}
