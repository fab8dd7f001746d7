/**
 * How long a turn-end hook (Claude's `Stop`) may wait for a goal decision. A harness kills a command
 * hook after its entry's `timeout` (Claude: seconds, 60 when absent), so the entry Muster writes for
 * the turn-end event carries a longer one and the hook itself gives up a margin before it: an answer
 * that arrives after the harness killed the hook would be lost, while one the hook abandons in time is
 * handed to another path by the daemon.
 */

/** `timeout` of the turn-end hook entry Muster writes, seconds (other events keep 5 s). */
export const TURN_END_HOOK_TIMEOUT_S = 600;

/** The hook stops waiting this long before the harness's timeout, ms. */
const MARGIN_MS = 15_000;

/** Longest a `muster hook … <turn end>` waits for a pending decision, ms. */
export const STOP_WAIT_MAX_MS = TURN_END_HOOK_TIMEOUT_S * 1000 - MARGIN_MS;

/** Per-event hook timeout, seconds: long for the turn-end event, which may wait for an audit. */
export function hookTimeoutS(event: string, turnEndEvent: string | undefined): number {
  return event === turnEndEvent ? TURN_END_HOOK_TIMEOUT_S : 5;
}

/**
 * Set to `1` in the environment of each turn `muster goal run` runs: that command reports the turn
 * and obeys the decision itself, so the turn-end hook inside the turn must not decide as well.
 */
export const GOAL_RUN_ENV = 'MUSTER_GOAL_RUN';
