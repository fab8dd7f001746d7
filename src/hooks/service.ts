/**
 * The daemon side of `muster hook`: a hook event becomes an exact status transition in the hub's
 * overlay (which pushes session.status.changed on SSE) and a sighting of its process for the
 * sources, links the wrapper's launch to its session,
 * and may answer with a decision. The decision is the goal driver's seam: `decide` can answer a
 * harness's turn-end event (Claude's and Codex's `Stop`) with `{ decision: 'block', reason }`, which `muster hook` prints in the
 * harness's own format so the turn continues, or with a ticket the hook then waits on (`collect`).
 */
import type { EventBus } from '../events/index.ts';
import type { HookStatusOverlay } from '../hub/hook-status.ts';
import { adapterFor, isSessionIdFor } from '../harnesses/registry.ts';
import type { Transition } from '../harnesses/adapter.ts';
import type { Harness } from '../core/session.ts';
import type { HookSightingStore } from './sightings.ts';
import { STOP_WAIT_MAX_MS } from './stop-wait.ts';

export interface HookInput {
  harness: Harness;
  event: string;
  /** The harness's payload (stdin JSON, notify argv JSON, plugin/extension event). */
  payload: Record<string, unknown>;
  /** The harness process, when the hook knows it. */
  pid: number | null;
  /** The wrapper's launch id (MUSTER_LAUNCH_ID), when wrapped. */
  launchId: string | null;
}

/** A Stop's answer: block with the next instruction, or a ticket to wait for (a goal is being audited). */
export type HookDecision = { decision: 'block'; reason: string } | { pending: true; decisionId: string; waitMs: number };

export interface HookAnswer {
  sessionId: string | null;
  transition: Transition | null;
  decision: HookDecision | null;
}

export interface HookServiceOptions {
  overlay: HookStatusOverlay;
  bus: EventBus;
  /** Where each event's (session, process) pair is recorded for the sources. Default: not recorded. */
  sightings?: HookSightingStore;
  /** Ties a launch to its session (launch/service.ts). Must not throw. */
  link?(launchId: string, harness: Harness, sessionId: string): Promise<void>;
  /** Re-lists a harness's source; called when a hook names a session the hub has not seen yet. */
  refresh?(harness: Harness): void;
  /** The goal driver's seam. Default: never decides. */
  decide?(input: HookInput, sessionId: string | null): Promise<HookDecision | null>;
  /** Waits for a pending decision (a hook's second request, payload `muster_decision_id`). Default: none. */
  collect?(decisionId: string, waitMs: number): Promise<HookDecision | null>;
  /** Epoch ms. Default: Date.now. */
  clock?(): number;
}

export interface HookService {
  receive(input: HookInput): Promise<HookAnswer>;
}

/**
 * A session-end event repeated within this window (ms) is a copy: Gemini CLI 0.61.0 fires SessionEnd
 * two or three times per exit, the last after its process is gone.
 */
const END_REPEAT_MS = 10_000;

export function createHookService(opts: HookServiceOptions): HookService {
  const clock = opts.clock ?? Date.now;
  /** When each session's end was last recorded, by `harness:session`; cleared by any later event. */
  const endedAt = new Map<string, number>();
  /** True for a copy of an end event already recorded; otherwise notes the event. */
  const repeatedEnd = (harness: Harness, sessionId: string, t: Transition, at: number): boolean => {
    const key = `${harness}:${sessionId}`;
    if (t.status !== 'ended') {
      endedAt.delete(key);
      return false;
    }
    const prev = endedAt.get(key);
    if (prev !== undefined && at - prev < END_REPEAT_MS) return true;
    if (endedAt.size >= 1000) for (const [k, v] of endedAt) if (at - v >= END_REPEAT_MS) endedAt.delete(k);
    endedAt.set(key, at);
    return false;
  };
  return {
    async receive(input) {
      // The second request of a Stop hook waiting on a goal decision: no new event, only the wait.
      const ticket = input.payload.muster_decision_id;
      if (typeof ticket === 'string') {
        const wait = Number(input.payload.muster_wait_ms);
        const decision = opts.collect ? await opts.collect(ticket, Number.isFinite(wait) && wait > 0 ? Math.min(wait, STOP_WAIT_MAX_MS) : 0) : null;
        return { sessionId: null, transition: null, decision };
      }
      const at = clock();
      const hooks = adapterFor(input.harness).hooks;
      const raw = hooks.sessionIdOf(input.payload);
      const sessionId = raw !== null && isSessionIdFor(input.harness, raw) ? raw : null;
      const transition = hooks.transition(input.event, input.payload);
      if (sessionId && transition && repeatedEnd(input.harness, sessionId, transition, at)) return { sessionId, transition, decision: null };
      if (sessionId && input.launchId && opts.link) await opts.link(input.launchId, input.harness, sessionId);
      if (sessionId && transition) {
        const known = opts.overlay.has(input.harness, sessionId);
        opts.overlay.record({ harness: input.harness, sessionId, status: transition.status, waitingFor: transition.waitingFor, pid: input.pid, at });
        const fresh = input.pid !== null && opts.sightings?.record(input.harness, { sessionId, pid: input.pid, at, status: transition.status, waitingFor: transition.waitingFor }) === true;
        // A session's first hook often precedes the file that lets its source list it; a source that
        // is live by sightings must also learn a new process of a known session.
        if (!known || fresh) opts.refresh?.(input.harness);
      }
      opts.bus.publish('hook.event.received', { harness: input.harness, event: input.event, sessionId, launchId: input.launchId, status: transition?.status ?? null, waitingFor: transition?.waitingFor ?? null });
      // A `muster goal run` turn (its hook says so) is decided by goal run, not here.
      const decision = opts.decide && input.payload.muster_goal_run !== true ? await opts.decide(input, sessionId) : null;
      return { sessionId, transition, decision };
    },
  };
}
