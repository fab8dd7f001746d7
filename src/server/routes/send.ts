/**
 * POST /api/sessions/:harness/:id/send `{ text, pid?, via? }` → `{ ok, delivered, queued, pane?, pid?,
 * manager? }`: the text reaches the session as the operator's next prompt (src/send). The harness and
 * id are checked by format before anything else sees them; the text by checkPrompt (empty 400, over
 * 100 KiB 413, control characters 400). A working session whose channel cannot queue is 409 `busy`;
 * a pane whose foreground process is not the session's verified process is 409 `pane_mismatch`.
 */
import { MusterError } from '../../errors/index.ts';
import type { Sender } from '../../send/index.ts';
import { readJsonObject } from '../body.ts';
import { harnessIn, optInteger, sessionIdIn } from '../input.ts';
import type { App } from '../env.ts';
import { actorOf } from './actions.ts';

/**
 * The body bound: a 100 KiB prompt is at most twice that once JSON-escaped (a quote, backslash,
 * tab or newline is two characters; other text is sent as UTF-8), plus the envelope.
 */
export const SEND_BODY_LIMIT = 256 * 1024;

export function sendRoutes(opts: { sender: Sender }) {
  return (app: App) => {
    app.post('/api/sessions/:harness/:id/send', async (c) => {
      const harness = harnessIn(c.req.param('harness'), 'invalid_argument');
      const id = sessionIdIn(c.req.param('id'));
      const body = await readJsonObject(c, SEND_BODY_LIMIT);
      if (!('text' in body)) throw new MusterError('invalid_body', 'send { "text": "<the prompt>" }');
      const pid = optInteger(body.pid, 'pid', 1);
      const answer = await opts.sender.send(id, body.text, actorOf(c, body.via), { harness, ...(pid === undefined ? {} : { pid }) });
      const { outcome: _outcome, ...rest } = answer;
      return c.json({ ok: true, ...rest });
    });
  };
}
