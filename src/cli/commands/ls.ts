/**
 * `muster ls [--live] [--harness H] [--status S] [--cwd DIR] [--json]`: a readable table on a
 * terminal; with --json or when piped, the envelope { ok: true, sessions: [Session…], indexing }. A first
 * start's cold index is waited for up to INDEX_WAIT_MS, so a short history lists whole; a long one
 * still being read after that lists the sessions indexed so far (indexing.active, and its figure). The
 * daemon holds the one request until then (`waitIndexMs`), so the wait costs it nothing.
 */
import { callApi, callApiInto, clientContext } from '../daemon-client.ts';
import type { CommandContext } from '../command.ts';
import { renderSessionTable } from '../table.ts';
import type { Session } from '../../core/session.ts';
import { indexingLabel } from '../../core/indexing.ts';

/** Longest wait for a running cold index before listing, ms. */
const INDEX_WAIT_MS = 2000;

export async function run({ flags, env, tty }: CommandContext): Promise<number> {
  const q = new URLSearchParams({ waitIndexMs: String(INDEX_WAIT_MS) });
  if (flags.live) q.set('live', 'true');
  for (const k of ['harness', 'status', 'cwd', 'host'] as const) if (typeof flags[k] === 'string') q.set(k, flags[k] as string);
  const path = `/sessions?${q}`;
  if (tty && !flags.json) {
    const body = await callApi(clientContext(env), 'GET', path);
    process.stdout.write(`${renderSessionTable((body.sessions ?? []) as Session[], process.stdout.columns ?? 120)}\n`);
    // A first start still reading a long history: the table holds what is indexed so far.
    const label = indexingLabel(body.indexing);
    if (label) process.stdout.write(`${label}…\n`);
    return 0;
  }
  // The daemon's answer is already the envelope { ok: true, sessions } on one line: printed as it comes.
  await callApiInto(clientContext(env), 'GET', path, process.stdout);
  await new Promise<void>((resolve, reject) => process.stdout.write('\n', (e) => (e ? reject(e) : resolve())));
  return 0;
}
