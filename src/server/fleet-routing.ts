/**
 * What the routes need of the fleet (the daemon implements it; absent on a host that never joined):
 * other hosts' records to list beside this host's own, and a way to run a steering request on the
 * host that owns its target. A steering route first looks for its target here; one that belongs to
 * another host is relayed there as a command and its answer — status and body, errors included — is
 * answered as is, naming the host. A request that is itself another host's command is never relayed.
 */
import type { Context } from 'hono';
import type { Session } from '../core/session.ts';
import type { Page } from '../pager/index.ts';
import type { Goal } from '../goals/index.ts';
import type { CommandAnswer, CommandKind } from '../fleet/types.ts';
import { MusterError } from '../errors/index.ts';
import type { AppEnv } from './env.ts';
import type { MusterEvent } from '../events/index.ts';

/** Marks a request as another host's command (set by the daemon's command runner). */
export const FLEET_COMMAND_HEADER = 'x-muster-fleet-command';

export interface RemoteOwner {
  hostId: string;
  name: string;
}

export interface FleetView {
  /** This host's name while it belongs to a fleet, else null. */
  localName(): string | null;
  /** Other hosts' sessions in the hub's order (empty when not joined). */
  sessions(compare: (a: Session, b: Session) => number): Session[];
  session(id: string): Session | undefined;
  pages(): Page[];
  page(id: string): Page | undefined;
  goals(): Goal[];
  goal(ref: string): Goal | undefined;
  /** Runs a command on the host that owns the record; the answer is that host's own API answer. */
  run(owner: RemoteOwner, kind: CommandKind, args: Record<string, unknown>): Promise<CommandAnswer>;
}

/** The owner of another host's record (absent fields mean "this host's"). */
export const ownerOf = (r: { hostId?: string; host?: string } | undefined): RemoteOwner | undefined =>
  r?.hostId ? { hostId: r.hostId, name: r.host ?? r.hostId } : undefined;

/** True when this request is another host's command: it runs here or fails here. */
export const isFleetCommand = (c: Context<AppEnv>): boolean => c.req.header(FLEET_COMMAND_HEADER) !== undefined;

/** Runs the command on its owner and answers what the owner answered; an error names the host. */
export async function relay(c: Context<AppEnv>, fleet: FleetView, owner: RemoteOwner, kind: CommandKind, args: Record<string, unknown>): Promise<Response> {
  const a = await fleet.run(owner, kind, args);
  if (a.status === 204 || a.body === null) return c.body(null, a.status === 204 ? 204 : (a.status as 200));
  const body = a.body as { ok?: unknown; error?: Record<string, unknown> };
  if (body && body.ok === false && body.error && typeof body.error.message === 'string') {
    return c.json({ ...body, error: { ...body.error, host: owner.name, message: `host "${owner.name}": ${body.error.message}` } }, a.status as 400);
  }
  return c.json(body, a.status as 200);
}

/** Focus is local by nature: another host's session is refused with the command to run there. */
export function remoteFocusError(s: Session): MusterError {
  const command = `muster focus ${s.id}`;
  return new MusterError('remote_session', `session ${s.id} runs on host "${s.host}"; focus is local to the host that runs it: run \`${command}\` on ${s.host}`, { details: { host: s.host, command } });
}

/**
 * An event's data as SSE sends it in a fleet: this host's own records carry its name as `host` (another
 * host's already carry theirs, with `hostId`), as in the listings. Outside a fleet: the data as published.
 */
export function stampHost(e: MusterEvent, name: string | null): unknown {
  if (name === null) return e.data;
  const own = (r: { hostId?: string }) => r.hostId === undefined;
  switch (e.type) {
    case 'session.upserted':
      return own(e.data.session) ? { ...e.data, session: { ...e.data.session, host: name } } : e.data;
    case 'session.removed':
    case 'session.status.changed':
      return own(e.data) ? { ...e.data, host: name } : e.data;
    case 'page.opened':
    case 'page.delivered':
    case 'page.answered':
    case 'page.cancelled':
    case 'page.dismissed':
    case 'page.expired':
    case 'goal.updated':
    case 'goal.settled':
      return own(e.data) ? { ...e.data, host: name } : e.data;
    default:
      return e.data;
  }
}
