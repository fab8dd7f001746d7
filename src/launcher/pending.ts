/**
 * Launches opened by `muster new` whose session id is not known yet (harnesses that take none up
 * front: Codex, OpenCode, pi, omp). When the launch is bound to its session — the wrapper registers it
 * with a pre-assigned id, or its first hook event names the session — the goal asked for is set on
 * it and waiters are told. The hook service awaits that binding before it asks the goal driver, so a
 * goal is in place before the first turn's end is judged. Kept in memory: a daemon restart forgets a
 * launch still waiting (its goal is then not set; the answer said it was pending).
 */
import type { Harness } from '../core/session.ts';
import type { NewGoal } from './types.ts';

interface Entry {
  harness: Harness;
  goal: NewGoal | null;
  at: number;
  waiters: ((sessionId: string | null) => void)[];
}

/** Launches kept at most, and for how long (ms): a launch whose harness never started is dropped. */
const MAX_ENTRIES = 1000;
const MAX_AGE_MS = 24 * 3_600_000;

export interface PendingLaunches {
  add(launchId: string, harness: Harness, goal: NewGoal | null, now: number): void;
  /** Forgets a launch (its pane did not open, or it ended); waiters get null. */
  drop(launchId: string): void;
  /**
   * The launch got its session: runs `setGoal` for its goal (awaited: the caller's next step may be the
   * goal driver), then wakes its waiters. False when the launch was not pending.
   */
  bind(launchId: string, harness: Harness, sessionId: string, setGoal: (goal: NewGoal) => Promise<unknown>): Promise<boolean>;
  /** Resolves with the session id once bound, or null after `ms` (or when dropped). */
  wait(launchId: string, ms: number): Promise<string | null>;
}

export function createPendingLaunches(): PendingLaunches {
  const entries = new Map<string, Entry>();
  const wake = (e: Entry, id: string | null) => e.waiters.splice(0).forEach((w) => w(id));
  return {
    add(launchId, harness, goal, now) {
      for (const [id, e] of entries) {
        if (now - e.at <= MAX_AGE_MS && entries.size < MAX_ENTRIES) continue;
        entries.delete(id);
        wake(e, null);
      }
      entries.set(launchId, { harness, goal, at: now, waiters: [] });
    },
    drop(launchId) {
      const e = entries.get(launchId);
      if (!e) return;
      entries.delete(launchId);
      wake(e, null);
    },
    async bind(launchId, harness, sessionId, setGoal) {
      const e = entries.get(launchId);
      if (!e || e.harness !== harness) return false;
      entries.delete(launchId);
      try {
        if (e.goal) await setGoal(e.goal);
      } finally {
        wake(e, sessionId);
      }
      return true;
    },
    wait(launchId, ms) {
      const e = entries.get(launchId);
      if (!e || ms <= 0) return Promise.resolve(null);
      return new Promise((resolve) => {
        const timer = setTimeout(() => done(null), ms);
        timer.unref?.();
        const done = (id: string | null) => {
          clearTimeout(timer);
          const i = e.waiters.indexOf(done);
          if (i >= 0) e.waiters.splice(i, 1);
          resolve(id);
        };
        e.waiters.push(done);
      });
    },
  };
}
