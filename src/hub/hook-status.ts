/**
 * The hook-status overlay the hub applies to every listing: the exact status a hook event reported
 * (working, waiting with the reason, idle, ended) wins over the status a source derived from files,
 * while the process lives. Files stay the truth when hooks are absent, once a session is not live,
 * and when the file-derived status changed after the last hook event (a hook that stopped firing
 * must not freeze a status). It also carries launch names (`muster claude --name demo`) as titles.
 */
import type { Harness, Session, SessionStatus } from '../core/session.ts';

export interface HookStatusEvent {
  harness: Harness;
  sessionId: string;
  status: Extract<SessionStatus, 'working' | 'waiting' | 'idle' | 'ended'>;
  waitingFor: string | null;
  /** The harness process that fired the hook, when known (Claude's CLAUDE_PID, a plugin's pid). */
  pid: number | null;
  /** Epoch ms of the event. */
  at: number;
}

export interface HookStatusOverlay {
  /** Records an event and tells subscribers that `harness` needs re-applying. */
  record(event: HookStatusEvent): void;
  /** A display name for a session (a launch's --name); null clears it. */
  setName(harness: Harness, sessionId: string, name: string | null): void;
  /** True when a hook event was recorded for this session (and not yet dropped). */
  has(harness: Harness, sessionId: string): boolean;
  /** Must not throw; returns the session unchanged when nothing applies. */
  apply(session: Session): Session;
  subscribe(listener: (harness: Harness) => void): () => void;
}

export interface HookStatusOptions {
  /**
   * How much newer (ms) a file-derived status must be than the last hook event to win.
   * Default: 2000 — files are written around the same moment the hook fires, so near ties go to the hook.
   */
  fileWinsAfterMs?: number;
}

const key = (h: Harness, id: string) => `${h}:${id}`;

export function createHookStatus(options: HookStatusOptions = {}): HookStatusOverlay {
  const slack = options.fileWinsAfterMs ?? 2000;
  const entries = new Map<string, HookStatusEvent>();
  const names = new Map<string, string>();
  const listeners = new Set<(h: Harness) => void>();
  const notify = (h: Harness) => {
    for (const l of listeners) {
      try {
        l(h);
      } catch {}
    }
  };

  function statusApplies(s: Session, e: HookStatusEvent): boolean {
    if (!s.live) return false;
    // Another process resumed the same session (Claude and pi allow it): its hooks are not this one's.
    if (e.pid !== null && s.pid !== null && s.pid !== e.pid && !s.pids.includes(e.pid)) return false;
    const since = s.statusSince ? Date.parse(s.statusSince) : NaN;
    if (s.status !== e.status && Number.isFinite(since) && since > e.at + slack) return false;
    return true;
  }

  return {
    record(e) {
      entries.set(key(e.harness, e.sessionId), e);
      notify(e.harness);
    },
    setName(h, id, name) {
      if (name) names.set(key(h, id), name);
      else names.delete(key(h, id));
      notify(h);
    },
    has: (h, id) => entries.has(key(h, id)),
    apply(s) {
      const k = key(s.harness, s.id);
      const name = names.get(k);
      let out = name && s.title !== name ? { ...s, title: name } : s;
      const e = entries.get(k);
      if (!e) return out;
      if (!s.live) {
        // The process is gone: its hook state is history, the files are the truth from now on.
        entries.delete(k);
        return out;
      }
      if (!statusApplies(s, e)) return out;
      const waitingFor = e.status === 'waiting' ? e.waitingFor : null;
      const statusSince = new Date(e.at).toISOString();
      if (out.status !== e.status || out.waitingFor !== e.waitingFor || out.statusKnown === false) {
        // A hook reported it: the status is known from here on.
        const { statusKnown: _unknown, ...known } = out;
        out = { ...known, status: e.status, waitingFor, statusSince };
      }
      // The process that fired the hook shows it too (a session open in two processes has two statuses).
      const at = e.pid === null ? -1 : (out.processes?.findIndex((p) => p.pid === e.pid) ?? -1);
      const p = out.processes?.[at];
      if (out.processes && p && (p.status !== e.status || p.waitingFor !== waitingFor)) {
        out = { ...out, processes: out.processes.map((x, i) => (i === at ? { ...x, status: e.status, waitingFor, statusSince } : x)) };
      }
      return out;
    },
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
