/**
 * Session actions: POST /api/focus|resume|end { sessionId } and GET /api/actions.
 * focus and end take an optional `pid`: one of the session's live processes (404 process_not_found
 * otherwise), for a session open in several at once.
 * end → 204 ended, 409 not running, 501 unsupported; resume → resumed | already_live (focused
 * instead) | 503 no pane manager (with the command to run by hand) | 404 unknown; focus → focused
 * or the reason it could not. Ids are checked by format here, before anything else sees them.
 */
import type { Context } from 'hono';
import { MusterError } from '../../errors/index.ts';
import type { Actions, ActionRecord, Actor } from '../../hub/actions.ts';
import { readJsonObject } from '../body.ts';
import { bodySessionId, optBoolean, optInteger, optSessionIdIn, queryInt } from '../input.ts';
import { isFleetCommand, ownerOf, relay, remoteFocusError, type FleetView } from '../fleet-routing.ts';
import type { Session } from '../../core/session.ts';
import type { App, AppEnv } from '../env.ts';

export interface ActionRouteOptions {
  actions: Actions;
  /** Reads the action log for GET /api/actions. */
  history?: { list(filter?: { sessionId?: string; limit?: number }): Promise<ActionRecord[]> };
  /** In a fleet: other hosts' sessions, and running an action on the host that owns one. */
  fleet?: FleetView;
  /** This host's session of that id, once the first listing is done (a local session wins over a remote one of the same id). */
  local?(sessionId: string): Promise<Session | undefined>;
}

/** The board authenticates by cookie; a bearer client may say it is the CLI or an MCP client. */
export function actorOf(c: Context<AppEnv>, claimed: unknown): Actor {
  if (c.get('auth')?.via === 'cookie') return 'board';
  if (claimed === 'fleet' && isFleetCommand(c)) return 'fleet';
  return claimed === 'cli' || claimed === 'mcp' ? claimed : 'api';
}

/** The optional `pid` of focus and end: a positive integer when present. */
function pidOf(body: Record<string, unknown>): { pid?: number } {
  const pid = optInteger(body.pid, 'pid', 1);
  return pid === undefined ? {} : { pid };
}

async function readRequest(c: Context<AppEnv>): Promise<{ sessionId: string; actor: Actor; body: Record<string, unknown> }> {
  const body = await readJsonObject(c);
  return { sessionId: bodySessionId(body.sessionId), actor: actorOf(c, body.via), body };
}

export function actionRoutes(opts: ActionRouteOptions) {
  /** Another host's session (never for a request that is itself another host's command). */
  const remote = async (c: Context<AppEnv>, id: string): Promise<Session | undefined> => {
    if (!opts.fleet || isFleetCommand(c)) return undefined;
    const s = opts.fleet.session(id);
    if (!s || (await opts.local?.(id))) return undefined;
    return s;
  };
  return (app: App) => {
    app.post('/api/focus', async (c) => {
      const r = await readRequest(c);
      const other = await remote(c, r.sessionId);
      if (other) throw remoteFocusError(other);
      return c.json({ ok: true, ...(await opts.actions.focus(r.sessionId, r.actor, pidOf(r.body))) });
    });
    app.post('/api/resume', async (c) => {
      const r = await readRequest(c);
      const other = await remote(c, r.sessionId);
      const owner = ownerOf(other);
      if (opts.fleet && owner) return relay(c, opts.fleet, owner, 'session.resume', { sessionId: r.sessionId, print: optBoolean(r.body.print, 'print') === true });
      const answer = await opts.actions.resume(r.sessionId, r.actor, { print: optBoolean(r.body.print, 'print') === true });
      if (answer.outcome === 'printed') return c.json({ ok: true, argv: answer.argv, cwd: answer.cwd });
      return c.json({ ok: true, ...answer });
    });
    app.post('/api/end', async (c) => {
      const r = await readRequest(c);
      const owner = ownerOf(await remote(c, r.sessionId));
      if (opts.fleet && owner) return relay(c, opts.fleet, owner, 'session.end', { sessionId: r.sessionId, ...pidOf(r.body) });
      await opts.actions.end(r.sessionId, r.actor, pidOf(r.body));
      return c.body(null, 204);
    });
    app.get('/api/actions', async (c) => {
      if (!opts.history) throw new MusterError('unsupported', 'no action log');
      const q = c.req.query();
      const actions = await opts.history.list({ sessionId: optSessionIdIn(q.sessionId), limit: queryInt(q.limit, 'limit', 1, 1000) });
      return c.json({ ok: true, actions });
    });
  };
}
