/**
 * Host liveness, judged by each host on its own clock so clocks that disagree between machines do
 * not matter: a host is reachable while it was heard from (a heartbeat, a change, a command answer)
 * less than `silenceMs` ago. After this host reconnects to the database it has heard nothing for a
 * while, so it estimates when each host was last heard from the database's own clock
 * (`now() - last_seen_at`, both read by the database). Pure.
 */

/** A host not heard from for this long is shown unreachable. */
export const SILENCE_MS = 30_000;
/** How often a host says it is alive when it has nothing else to publish. */
export const HEARTBEAT_MS = 10_000;

export function isReachable(lastHeardMs: number | null, nowMs: number, silenceMs = SILENCE_MS): boolean {
  return lastHeardMs !== null && nowMs - lastHeardMs < silenceMs;
}

/**
 * When a host was last heard from, on this host's clock, from a database reading: the host's
 * `last_seen_at` and the database's `now()` (so only their difference counts), read at `localNowMs`.
 */
export function heardFromDatabase(lastSeenAtMs: number, databaseNowMs: number, localNowMs: number): number {
  const age = Math.max(0, databaseNowMs - lastSeenAtMs);
  return localNowMs - age;
}

/** Hosts whose reachability differs from what was last shown, with the new value. */
export function reachabilityChanges(
  hosts: Iterable<{ id: string; lastHeardMs: number | null; shownReachable: boolean }>,
  nowMs: number,
  silenceMs = SILENCE_MS,
): { id: string; reachable: boolean }[] {
  const out: { id: string; reachable: boolean }[] = [];
  for (const h of hosts) {
    const r = isReachable(h.lastHeardMs, nowMs, silenceMs);
    if (r !== h.shownReachable) out.push({ id: h.id, reachable: r });
  }
  return out;
}
