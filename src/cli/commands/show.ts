/**
 * `muster show <id>`: one session, { ok: true, session }. With `--messages [--from N] [--limit N]`,
 * its conversation paged (user, assistant, tool-call, tool-result, system): readable text on a
 * terminal, else `{ ok, session: { harness, id }, messages, next, total }`.
 */
import { MusterError } from '../../errors/index.ts';
import { isSessionId } from '../../harnesses/registry.ts';
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';
import { renderMessages } from '../search-table.ts';
import type { PositionedMessage } from '../../core/transcript-message.ts';

function count(flag: string | boolean | undefined, name: string): string | null {
  if (flag === undefined) return null;
  if (typeof flag !== 'string' || !/^\d+$/.test(flag)) throw usageError(`--${name} takes a number`);
  return flag;
}

export async function run({ args, flags, env, tty }: CommandContext): Promise<number> {
  const id = args[0];
  if (!id) throw usageError('muster show <sessionId>');
  if (args.length > 1) throw usageError(`show takes one session id (got '${args[1]}' too)`);
  if (!isSessionId(id)) throw new MusterError('invalid_id', `not a session id: ${JSON.stringify(id)}`);
  const from = count(flags.from, 'from');
  const limit = count(flags.limit, 'limit');
  if (!flags.messages && (from !== null || limit !== null)) throw usageError('--from and --limit go with --messages');
  const ctx = clientContext(env);
  const body = await callApi(ctx, 'GET', `/sessions/${encodeURIComponent(id)}`);
  if (!flags.messages) {
    printOk({ session: body.session });
    return 0;
  }
  const session = body.session as { harness: string; id: string };
  const q = new URLSearchParams();
  if (from !== null) q.set('from', from);
  if (limit !== null) q.set('limit', limit);
  const page = await callApi(ctx, 'GET', `/sessions/${encodeURIComponent(session.harness)}/${encodeURIComponent(session.id)}/messages?${q}`);
  if (tty && !flags.json) {
    if (page.supported === false) process.stdout.write(`${session.harness} sessions cannot be read by Muster yet.\n`);
    else process.stdout.write(`${renderMessages(page.messages as PositionedMessage[], page.next as number | null)}\n`);
    return 0;
  }
  printOk({ session: { harness: session.harness, id: session.id }, supported: page.supported, messages: page.messages, next: page.next, total: page.total });
  return 0;
}
