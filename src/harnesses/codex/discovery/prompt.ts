/**
 * A prompt to a thread the shared Codex app-server daemon holds, through the daemon's own JSON-RPC:
 * `thread/read` (is it still loaded, is a turn running), then `turn/start {threadId, input}`. Observed on
 * 0.171.0: `turn/start` needs no `thread/resume` on a thread the daemon has loaded (a TUI attached or
 * not), and an attached TUI shows the prompt. On a thread with a running turn it does not queue: it
 * answers with the running turn's id and steers the text into that turn (the model's reply in flight is
 * cut short and asked again with the text). So a running thread is refused as busy instead.
 *
 * A thread read and a turn start are two calls: a turn that starts between them (a TUI's Enter, an
 * active goal) would still be steered. That window is a few milliseconds.
 */
import type { PromptOutcome } from '../../../discovery/contract.ts';
import type { AppServerClient } from './app-server-client.ts';
import { parseThreadRead } from './app-server-client.ts';

export interface PromptRequest {
  id: string;
  text: string;
  controlSocket: string;
  /** Budget for the connection and each call, ms. */
  timeoutMs: number;
  withDaemon: <T>(socketPath: string, fn: (c: AppServerClient) => Promise<T>, timeoutMs: number) => Promise<T>;
}

/** Why a daemon status refuses a prompt, or null when it can take one. */
function busyReason(type: string, flags: string[]): string | null {
  if (type !== 'active') return null;
  if (flags.some((f) => /^waitingOn/i.test(f))) return 'it is waiting for you (an approval or a question): a prompt now would be steered into that turn; answer it first';
  return 'it is in a turn, and Codex does not queue a prompt behind a running turn (its app-server steers it into the turn); send once it is idle';
}

/** Never throws. Sent nothing → 'no_channel' or 'busy'; the daemon may have it → 'refused'. */
export async function promptDaemonThread(r: PromptRequest): Promise<PromptOutcome> {
  let started = false;
  try {
    return await r.withDaemon(r.controlSocket, async (c): Promise<PromptOutcome> => {
      const st = parseThreadRead(await c.request('thread/read', { threadId: r.id }));
      if (!st || st.type === 'notLoaded') return { ok: false, reason: 'no_channel', message: 'the Codex daemon no longer holds this thread' };
      const busy = busyReason(st.type, st.activeFlags);
      if (busy !== null) return { ok: false, reason: 'busy', message: `Codex thread ${r.id} ${busy}` };
      if (st.type !== 'idle') return { ok: false, reason: 'refused', message: `the Codex daemon reports thread ${r.id} as ${st.type}; nothing was sent` };
      started = true;
      await c.request('turn/start', { threadId: r.id, input: [{ type: 'text', text: r.text }] });
      return { ok: true, via: 'codex app-server turn/start' };
    }, r.timeoutMs);
  } catch (e) {
    const why = (e as Error).message;
    // Before turn/start nothing was sent: another channel may try. After it, the daemon may have the
    // prompt (a timed-out answer), so it is never sent a second way.
    if (!started) return { ok: false, reason: 'no_channel', message: `the Codex daemon could not be asked: ${why}` };
    return { ok: false, reason: 'refused', message: `the Codex daemon did not confirm the prompt (${why}); it may still run: look before sending again` };
  }
}
