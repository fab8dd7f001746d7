/**
 * The daemon side of launches: register a `muster <harness>` run, learn its session id, record its
 * exit, and give its --name to the hub's overlay so the session shows under that name.
 */
import { MusterError } from '../errors/index.ts';
import type { EventBus } from '../events/index.ts';
import type { HookStatusOverlay } from '../hub/hook-status.ts';
import { isSessionIdFor } from '../harnesses/registry.ts';
import type { Harness } from '../core/session.ts';
import { isLaunchId } from './launch-id.ts';
import type { LaunchesRepository, LaunchPatch, LaunchRecord } from './types.ts';

export interface LaunchServiceOptions {
  repo: LaunchesRepository;
  overlay: HookStatusOverlay;
  bus: EventBus;
  /**
   * Told (and awaited) once a launch's session id is known — at register, update or link — before
   * the call that bound it returns: `muster new` sets a pending goal here, ahead of the goal driver.
   * Must not throw.
   */
  onBound?(record: LaunchRecord): Promise<void>;
}

export interface LaunchInput {
  id: string;
  harness: Harness;
  name: string | null;
  cwd: string;
  sessionId: string | null;
  pid: number | null;
}

export interface LaunchService {
  register(input: LaunchInput): Promise<LaunchRecord>;
  update(id: string, patch: LaunchPatch): Promise<LaunchRecord>;
  /** Ties a launch to the session a hook event named (first one wins); never throws. */
  link(launchId: string, harness: Harness, sessionId: string): Promise<void>;
  get(id: string): Promise<LaunchRecord | undefined>;
  list(filter?: { running?: boolean; limit?: number }): Promise<LaunchRecord[]>;
  /**
   * The session a launch is bound to, synchronously (the pager attributes an MCP call carrying only
   * `x-muster-launch-id` by it); null when not known yet. Served from memory, filled at register,
   * update and link, and from the running launches at start (a daemon restart keeps the binding).
   */
  sessionOf(launchId: string): string | null;
}

export function createLaunchService(opts: LaunchServiceOptions): LaunchService {
  const { repo, overlay, bus } = opts;
  const bound = new Map<string, string>();
  const named = (r: LaunchRecord) => {
    if (r.sessionId) bound.set(r.id, r.sessionId);
    if (r.name && r.sessionId) overlay.setName(r.harness, r.sessionId, r.name);
  };
  void repo.list({ running: true, limit: 1000 }).then((rs) => rs.forEach(named), () => undefined);
  return {
    async register(input) {
      if (!isLaunchId(input.id)) throw new MusterError('invalid_id', 'not a launch id (lch_ followed by 22 hex digits)');
      if (input.sessionId !== null && !isSessionIdFor(input.harness, input.sessionId)) throw new MusterError('invalid_id', `not a ${input.harness} session id`);
      const record: LaunchRecord = { ...input, startedAt: new Date().toISOString(), endedAt: null, exitCode: null };
      try {
        await repo.insert(record);
      } catch (e) {
        throw new MusterError('invalid_argument', `launch ${input.id} is already registered`, { cause: e });
      }
      named(record);
      bus.publish('launch.started', { launch: record });
      if (record.sessionId) await opts.onBound?.(record);
      return record;
    },
    async update(id, patch) {
      if (!isLaunchId(id)) throw new MusterError('invalid_id', 'not a launch id (lch_ followed by 22 hex digits)');
      const before = await repo.get(id);
      if (!before) throw new MusterError('not_found', `no launch ${id}`);
      if (patch.sessionId !== undefined && !isSessionIdFor(before.harness, patch.sessionId)) throw new MusterError('invalid_id', `not a ${before.harness} session id`);
      const r = await repo.update(id, patch);
      if (!r) throw new MusterError('not_found', `no launch ${id}`);
      named(r);
      if (!before.sessionId && r.sessionId) await opts.onBound?.(r);
      if (patch.endedAt) bus.publish('launch.ended', { launch: r });
      return r;
    },
    async link(launchId, harness, sessionId) {
      if (!isLaunchId(launchId) || !isSessionIdFor(harness, sessionId)) return;
      const before = await repo.get(launchId);
      if (!before || before.harness !== harness || before.sessionId === sessionId) return;
      const r = await repo.update(launchId, { sessionId });
      if (r) named(r);
      // The first link binds it (the store keeps the first session id; a later one changes nothing).
      if (r && !before.sessionId && r.sessionId === sessionId) await opts.onBound?.(r);
    },
    get: (id) => repo.get(id),
    list: (filter) => repo.list(filter),
    sessionOf: (id) => bound.get(id) ?? null,
  };
}
