/**
 * A turn's end as the in-process reporters tell it to the daemon when a goal may be driving the
 * session: the event with the turn's final text, then — when the daemon answers with a ticket (a goal
 * is being audited) — a second request that waits for the decision, like `muster hook`'s Stop. The
 * answer is the continuation prompt, or null (no goal, stop, daemon away: fail open).
 */
import { findDaemon, postJson } from './daemon-link.ts';

/** The final report the auditor judges, kept whole up to this many characters (the route takes 256 KiB). */
const REPORT_MAX = 50_000;
/** Longest wait for a decision, ms: the daemon's own bound (audit timeout + margin) comes first. */
const DECISION_MAX_MS = 585_000;

interface Decision {
  decision?: unknown;
  reason?: unknown;
  pending?: unknown;
  decisionId?: unknown;
  waitMs?: unknown;
}

/** Reports the turn end and resolves with the continuation prompt to send, or null. Never throws. */
export async function turnEndDecision(harness: string, event: string, payload: Record<string, unknown>, report: string | null): Promise<string | null> {
  const link = findDaemon();
  if (!link) return null;
  const path = `/hooks/${harness}/${encodeURIComponent(event)}`;
  // muster_turn_ended_at: when the turn ended (now, unless the caller knows better); the daemon does not judge a turn that ended before the goal was set.
  const body = { payload: { muster_turn_ended_at: Date.now(), ...payload, last_assistant_message: report === null ? null : report.slice(0, REPORT_MAX) }, pid: process.pid, launchId: process.env.MUSTER_LAUNCH_ID || null };
  const first = await postJson(link, path, body, 2000);
  let d = (first.json as { decision?: Decision } | null)?.decision ?? null;
  if (d && d.pending === true && typeof d.decisionId === 'string') {
    const waitMs = Math.min(typeof d.waitMs === 'number' && d.waitMs > 0 ? d.waitMs : 0, DECISION_MAX_MS);
    const later = await postJson(link, path, { payload: { muster_decision_id: d.decisionId, muster_wait_ms: waitMs }, pid: null, launchId: null }, waitMs + 1000);
    d = (later.json as { decision?: Decision } | null)?.decision ?? null;
  }
  return d && d.decision === 'block' && typeof d.reason === 'string' ? d.reason : null;
}

/** How often a running inbox poll checks whether the sessions to listen for changed (and a process with none yet whether it has one), ms. */
const RENEW_CHECK_MS = 250;

/** A list of sessions as a set, to compare two lists regardless of order. */
const sessionSet = (ids: readonly string[]): string => [...ids].sort().join(',');

export interface InboxListener {
  stop(): void;
}

/**
 * Polls the daemon's inbox for prompts meant for the sessions `sessions()` names (the one this process
 * runs, or the few a TUI has shown), handing each to `deliver`, until `stop()`. Backs off while the
 * daemon is away. Its socket and timers never keep the harness's process alive.
 */
export function listenInbox(harness: string, sessions: () => string[], deliver: (sessionId: string, text: string) => void | Promise<void>): InboxListener {
  let stopped = false;
  let abort = new AbortController();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref?.();
    });
  void (async () => {
    while (!stopped) {
      const ids = sessions();
      // While the process knows no session yet, the check is in memory only and comes every
      // RENEW_CHECK_MS: a session's first prompt from `muster send` may come right after its first turn.
      if (ids.length === 0) {
        await pause(RENEW_CHECK_MS);
        continue;
      }
      const link = findDaemon();
      if (!link) {
        await pause(2000);
        continue;
      }
      abort = new AbortController();
      // A session this process starts showing (a TUI's new session) is listened for at once, not when the
      // running poll ends up to 25 s later: the poll is cut and made again with the new list.
      const polled = sessionSet(ids);
      let renewed = false;
      const watch = setInterval(() => {
        if (sessionSet(sessions()) === polled) return; // the same sessions in another order: nothing to renew
        renewed = true;
        abort.abort();
      }, RENEW_CHECK_MS);
      watch.unref?.();
      const r = await postJson(link, '/inbox/wait', { harness, sessionIds: ids, seconds: 25 }, 30_000, {}, abort.signal, true);
      clearInterval(watch);
      const prompts = (r.json as { prompts?: { sessionId?: unknown; text?: unknown }[] } | null)?.prompts;
      if (renewed && !Array.isArray(prompts)) continue;
      if (!Array.isArray(prompts)) {
        await pause(r.status === 0 ? 3000 : 10_000);
        continue;
      }
      for (const p of prompts) {
        if (typeof p.sessionId === 'string' && typeof p.text === 'string') {
          try {
            await deliver(p.sessionId, p.text);
          } catch {
            // The harness refused it (e.g. its session was replaced); the sender already saw it claimed.
          }
        }
      }
    }
  })();
  return {
    stop() {
      stopped = true;
      abort.abort();
    },
  };
}
