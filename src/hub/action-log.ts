/**
 * Recording an action: whatever its outcome — a result, or the MusterError that stopped it — one
 * record goes to the action log (the store) and out on the bus as `session.action.recorded`. The
 * record names who (actor), what (action), which session, and how it ended; the caller's result
 * (or error) is passed through unchanged. A log that cannot be written is reported on the daemon's
 * log line, never allowed to change the action's outcome.
 */
import { isMusterError } from '../errors/index.ts';
import type { EventBus } from '../events/index.ts';
import type { Harness } from '../core/session.ts';
import type { ActionKind, ActionLog, ActionRecord, Actor } from './actions.ts';

export interface ActionRecorderOptions {
  log: ActionLog;
  bus: EventBus;
  clock?: () => number;
  logLine?(line: string): void;
}

/**
 * Runs `run` and records it. `run` names the session's harness through its callback once known; the
 * result's `outcome` becomes the record's, its other fields the detail, `note` is added to the detail
 * either way (facts that belong in the log but not in the answer).
 */
export type ActionRecorder = <T extends { outcome: string }>(
  actor: Actor,
  action: ActionKind,
  sessionId: string,
  run: (harness: (h: Harness) => void) => Promise<T>,
  note?: Record<string, unknown>,
) => Promise<T>;

const newActionId = (now: number): string => `act_${now.toString(36).padStart(9, '0')}${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`;

export function createActionRecorder(opts: ActionRecorderOptions): ActionRecorder {
  const clock = opts.clock ?? Date.now;
  return async <T extends { outcome: string }>(actor: Actor, action: ActionKind, sessionId: string, run: (harness: (h: Harness) => void) => Promise<T>, note?: Record<string, unknown>): Promise<T> => {
    let harness: Harness | null = null;
    let outcome: string;
    let detail: Record<string, unknown>;
    let result: T | undefined;
    let failure: unknown;
    try {
      result = await run((h) => (harness = h));
      ({ outcome, ...detail } = result);
    } catch (e) {
      failure = e;
      outcome = isMusterError(e) ? e.code : 'internal';
      detail = { message: isMusterError(e) ? e.message : 'internal error' };
    }
    // An id that failed validation is stored as-is only when short; it is data, never executed.
    const entry: ActionRecord = { id: newActionId(clock()), at: new Date(clock()).toISOString(), actor, action, sessionId: sessionId.slice(0, 80), harness, outcome, detail: { ...detail, ...note } };
    try {
      await opts.log.append(entry);
    } catch (e) {
      opts.logLine?.(`[muster] could not record ${action} ${entry.sessionId}: ${(e as Error).message}`);
    }
    opts.bus.publish('session.action.recorded', entry);
    if (failure !== undefined) throw failure;
    return result as T;
  };
}
