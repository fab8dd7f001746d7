/**
 * Which gemini worker has which session. Gemini writes nothing that says a session is live, so the
 * evidence is, strongest first:
 * - the newest hook sighting of the worker's pid (its hooks name the session; the worker must have
 *   started before the event, so a reused pid never inherits one) — a worker whose newest sighting
 *   is its session's end claims nothing, it is on its way out;
 * - the session its argv names (`muster gemini`'s `--session-id`, a `--resume <uuid>`);
 * - a guess: a worker with neither takes the session of its working directory that a file started
 *   since the worker did (Gemini writes a chat file at start, a resume too), else the one written
 *   last since then — not first: at start Gemini writes a summary into an older session — and its
 *   status is unknown. Several such workers in one directory make every guess there ambiguous:
 *   they are shown, never ended.
 * Pure and deterministic.
 */
import type { HookSighting } from '../../adapter.ts';
import type { GeminiWorker } from './processes.ts';

export interface LiveClaim {
  pids: number[];
  /** The workers' newest sightings of this session, most urgent first; empty when no hook reported. */
  sightings: HookSighting[];
  /** A working-directory guess made among several unclaimed workers there: do not act on it. */
  ambiguous: boolean;
}

export interface Claimable {
  id: string;
  cwd: string | null;
  lastWriteMs: number;
  /** When its newest file was started, ms (0: unknown). */
  lastStartMs: number;
}

/** A file may be written this long before the process start we read (clock and tick rounding), ms. */
const START_SLACK_MS = 2000;
const URGENCY: Record<string, number> = { waiting: 3, working: 2, idle: 1, ended: 0 };

export function assignLive(workers: readonly GeminiWorker[], sightings: readonly HookSighting[], sessions: readonly Claimable[]): Map<string, LiveClaim> {
  const newest = new Map<number, HookSighting>();
  for (const s of sightings) if (!newest.has(s.pid) || (newest.get(s.pid) as HookSighting).at < s.at) newest.set(s.pid, s);
  const claims = new Map<string, LiveClaim>();
  const claim = (id: string, pid: number, s: HookSighting | null, ambiguous = false): void => {
    const c = claims.get(id) ?? { pids: [], sightings: [], ambiguous: false };
    claims.set(id, c);
    if (!c.pids.includes(pid)) c.pids.push(pid);
    if (s) c.sightings.push(s);
    c.ambiguous ||= ambiguous;
  };
  const unclaimed: GeminiWorker[] = [];
  for (const w of [...workers].sort((a, b) => a.pid - b.pid)) {
    const s = newest.get(w.pid);
    if (s && w.startedAtMs <= s.at + START_SLACK_MS) {
      if (s.status !== 'ended') claim(s.sessionId, w.pid, s);
    } else if (w.argvSession !== null) claim(w.argvSession, w.pid, null);
    else unclaimed.push(w);
  }
  for (const w of unclaimed.sort((a, b) => b.startedAtMs - a.startedAtMs || b.pid - a.pid)) {
    if (w.cwd === null) continue;
    const since = w.startedAtMs - START_SLACK_MS;
    const open = (t: Claimable) => (t.lastStartMs >= since ? 1 : 0);
    const pick = sessions
      .filter((t) => t.cwd === w.cwd && !claims.has(t.id) && t.lastWriteMs >= since)
      .sort((a, b) => open(b) - open(a) || b.lastWriteMs - a.lastWriteMs || (a.id < b.id ? 1 : -1))[0];
    if (pick) claim(pick.id, w.pid, null, unclaimed.filter((u) => u.cwd === w.cwd).length > 1);
  }
  for (const c of claims.values()) c.sightings.sort((a, b) => (URGENCY[b.status] ?? 0) - (URGENCY[a.status] ?? 0) || b.at - a.at);
  return claims;
}
