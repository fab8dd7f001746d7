/**
 * Hook sightings: for each harness, the latest hook event seen from each (session, process) pair.
 * The hook service records them; sources read them through `SourceDeps.sightings` (a harness that
 * writes nothing saying a session is live, such as Gemini CLI, is live by these). Pids are recorded
 * as the hooks reported them: a source verifies each against the process table before it counts.
 * Bounded: the oldest pairs go first once a harness has `maxPerHarness`.
 */
import type { HookSighting, HookSightings } from '../harnesses/adapter.ts';

export interface HookSightingStore extends HookSightings {
  /** Records an event's sighting. True when the (session, process) pair is new: its source should re-list. */
  record(harness: string, sighting: HookSighting): boolean;
}

export interface HookSightingsOptions {
  /** Pairs kept per harness. Default: 500. */
  maxPerHarness?: number;
}

export function createHookSightings(options: HookSightingsOptions = {}): HookSightingStore {
  const max = Math.max(1, options.maxPerHarness ?? 500);
  // Insertion order is recency order: a pair seen again is moved to the end.
  const byHarness = new Map<string, Map<string, HookSighting>>();
  return {
    record(harness, s) {
      let pairs = byHarness.get(harness);
      if (!pairs) byHarness.set(harness, (pairs = new Map()));
      const key = `${s.sessionId}:${s.pid}`;
      const fresh = !pairs.delete(key);
      pairs.set(key, { ...s });
      for (const oldest of pairs.keys()) {
        if (pairs.size <= max) break;
        pairs.delete(oldest);
      }
      return fresh;
    },
    of(harness) {
      return [...(byHarness.get(harness)?.values() ?? [])].reverse().map((s) => ({ ...s }));
    },
  };
}
