/**
 * `muster send <sessionId> <text…>` (or `-`: the text from stdin, e.g. a file with newlines):
 * the text reaches the session as the operator's next prompt through its harness's own channel, else
 * typed into its verified pane; a dormant session is resumed with it. Prints
 * `{ ok, delivered, queued, pane?, pid?, manager? }`. A text that starts with `-` goes after `--`.
 */
import { MusterError } from '../../errors/index.ts';
import { isSessionId } from '../../harnesses/registry.ts';
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import { pidFlag } from './pid-flag.ts';
import type { CommandContext } from '../command.ts';

/** Read from stdin at most this many bytes (the daemon refuses a prompt over 100 KiB with its own message). */
const STDIN_MAX = 1024 * 1024;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > STDIN_MAX) throw new MusterError('payload_too_large', `stdin holds more than ${STDIN_MAX} bytes; a prompt may have at most 100 KiB`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function run({ args, flags, env }: CommandContext): Promise<number> {
  const [id, ...words] = args;
  if (!id || words.length === 0) throw usageError('muster send <sessionId> "<text>" (or - to read the text from stdin)');
  if (!isSessionId(id)) throw new MusterError('invalid_id', `not a session id: ${JSON.stringify(id)}`);
  const pid = pidFlag(flags.pid);
  const text = words.length === 1 && words[0] === '-' ? await readStdin() : words.join(' ');
  const ctx = clientContext(env);
  // The route names the harness: the session says which.
  const shown = await callApi(ctx, 'GET', `/sessions/${encodeURIComponent(id)}`);
  const harness = (shown.session as { harness?: unknown } | undefined)?.harness;
  if (typeof harness !== 'string') throw new MusterError('session_not_found', `no session ${id}`);
  const { ok: _ok, ...body } = await callApi(ctx, 'POST', `/sessions/${encodeURIComponent(harness)}/${encodeURIComponent(id)}/send`, { text, via: 'cli', ...pid });
  printOk(body);
  return 0;
}
