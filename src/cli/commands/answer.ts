/**
 * `muster answer <pageId> <text…>` or `muster answer <pageId> --choice N` (N: the 0-based index into
 * the page's choices, as listed by `muster pages`): { ok, page }. The answer is committed by the daemon
 * before the waiting agent receives it; answering twice or a closed page is a 409 with its code.
 */
import { MusterError } from '../../errors/index.ts';
import { isPageId } from '../../pager/index.ts';
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';

export async function run({ args, flags, env }: CommandContext): Promise<number> {
  const [id, ...words] = args;
  const choice = flags.choice;
  if (!id || (words.length === 0) === (choice === undefined)) throw usageError('muster answer <pageId> <text> | muster answer <pageId> --choice N');
  if (!isPageId(id)) throw new MusterError('invalid_id', `not a page id: ${JSON.stringify(id)}`);
  let body: { text: string } | { choice: number };
  if (choice !== undefined) {
    if (typeof choice !== 'string' || !/^\d{1,3}$/.test(choice)) throw usageError('--choice takes the 0-based index of one of the page\'s choices');
    body = { choice: Number(choice) };
  } else body = { text: words.join(' ') };
  const r = await callApi(clientContext(env), 'POST', `/pages/${encodeURIComponent(id)}/answer`, body);
  printOk({ page: r.page });
  return 0;
}
