/**
 * `muster resume <id> [--print]`: reopen a dormant session in a new pane with its harness's own
 * resume command (a live one is focused instead). `--print` opens nothing and prints
 * { ok, argv, cwd } — the exact command to run by hand.
 */
import { MusterError } from '../../errors/index.ts';
import { isSessionId } from '../../harnesses/registry.ts';
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';

export async function run({ args, flags, env }: CommandContext): Promise<number> {
  const id = args[0];
  if (!id || args.length > 1) throw usageError('muster resume <sessionId> [--print]');
  if (!isSessionId(id)) throw new MusterError('invalid_id', `not a session id: ${JSON.stringify(id)}`);
  const print = flags.print === true;
  const { ok: _ok, ...body } = await callApi(clientContext(env), 'POST', '/resume', { sessionId: id, via: 'cli', ...(print ? { print: true } : {}) });
  if (print) printOk({ argv: body.argv, cwd: body.cwd });
  else printOk(body);
  return 0;
}
