/**
 * POST /api/sessions/:harness/:id/send `{ text, pid?, via? }` → `{ ok, delivered, queued, pane?, pid?,
 * manager? }`: the text reaches the session as the operator's next prompt (src/send). The harness and
 * id are checked by format before anything else sees them; the text by checkPrompt (empty 400, over
 * 100 KiB 413, control characters 400). A working session whose channel cannot queue is 409 `busy`;
 * a pane whose foreground process is not the session's verified process is 409 `pane_mismatch`.
 */
import { MusterError } from '../../errors/index.ts';
import { checkPrompt, type Sender } from '../../send/index.ts';
import { readJsonObject } from '../body.ts';
import { harnessIn, optInteger, sessionIdIn } from '../input.ts';
import { isFleetCommand, ownerOf, relay, type FleetView } from '../fleet-routing.ts';
import type { Session } from '../../core/session.ts';
import type { App } from '../env.ts';
import { actorOf } from './actions.ts';

/**
 * The body bound: a 100 KiB prompt is at most twice that once JSON-escaped (a quote, backslash,
 * tab or newline is two characters; other text is sent as UTF-8), plus the envelope.
 */
export const SEND_BODY_LIMIT = 256 * 1024;

export interface SendRouteOptions {
  sender: Sender;
  /** In a fleet: another host's session gets the prompt through the command table, run by its owner. */
  fleet?: FleetView;
  /** This host's session of that id, once the first listing is done (a local session wins over a remote one). */
  local?(sessionId: string): Promise<Session | undefined>;
}

export function sendRoutes(opts: SendRouteOptions) {
  return (app: App) => {
    app.post('/api/sessions/:harness/:id/send', async (c) => {
      const harness = harnessIn(c.req.param('harness'), 'invalid_argument');
      const id = sessionIdIn(c.req.param('id'));
      const body = await readJsonObject(c, SEND_BODY_LIMIT);
      if (!('text' in body)) throw new MusterError('invalid_body', 'send { "text": "<the prompt>" }');
      const pid = optInteger(body.pid, 'pid', 1);
      // Another host's session (never for a request that is itself another host's command): its owner
      // runs the same send with the same checks, and its answer (or refusal) is this one.
      if (opts.fleet && !isFleetCommand(c)) {
        const other = opts.fleet.session(id);
        const owner = other && other.harness === harness && !(await opts.local?.(id)) ? ownerOf(other) : null;
        if (owner) {
          // The text is checked here too, so a refused one never crosses the database.
          const checked = checkPrompt(body.text);
          if (!checked.ok) throw new MusterError(checked.code, checked.message);
          return relay(c, opts.fleet, owner, 'session.send', { harness, sessionId: id, text: body.text, ...(pid === undefined ? {} : { pid }) });
        }
      }
      const answer = await opts.sender.send(id, body.text, actorOf(c, body.via), { harness, ...(pid === undefined ? {} : { pid }) });
      const { outcome: _outcome, ...rest } = answer;
      return c.json({ ok: true, ...rest });
    });
  };
}
