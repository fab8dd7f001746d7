/**
 * Which live OpenCode process has which session open. OpenCode keeps no lock and
 * no pid file per session, so this is decided from process evidence only. Pure and deterministic: the same
 * inputs in any order give the same answer.
 *
 * Exact claims (safe to end): the session named by `-s/--session` (TUI, `run`, `attach`; not with `--fork`,
 * which creates a new session), and sessions a process's own HTTP server reports busy (`/session/status`).
 * Guessed claims (shown live, never ended): a TUI or `run` with no exact claim owns a session of its cwd —
 * with `-c` the most recently updated one, otherwise one created after the process started (newest process
 * first, each taking the earliest such session, so two processes in one directory split them in order).
 */
import type { OpenCodeProcessClass } from './argv.ts';

export interface OpenCodeProcess {
  pid: number;
  startedAtMs: number;
  cwd: string | null;
  cls: OpenCodeProcessClass;
  /** Loopback base URL of the HTTP API it serves or is a client of. */
  serverUrl: string | null;
}

export interface SessionRef {
  id: string;
  directory: string | null;
  createdMs: number | null;
  updatedMs: number | null;
}

export interface Claim {
  /** The process to signal: an exact argv claimer first, else the server reporting it busy, else the guess. */
  pid: number;
  pids: number[];
  /** True when some process names the session exactly (argv or its own server); false for a cwd guess. */
  exact: boolean;
  /** Server to ask for status and to abort through, when one of the claimers has one. */
  serverUrl: string | null;
  /** True when the main process is a headless server (`serve`), which also runs other sessions. */
  headless: boolean;
}

/** A process may have started a moment before it created its session's row; allow for clock skew. */
const CREATED_SLACK_MS = 2000;

export function assignOpenCodeSessions(
  processes: readonly OpenCodeProcess[],
  sessions: readonly SessionRef[],
  /** Busy session ids per server URL, from `/session/status`. */
  busyByServer: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, Claim> {
  const procs = [...processes].sort((a, b) => a.startedAtMs - b.startedAtMs || a.pid - b.pid);
  const known = new Set(sessions.map((s) => s.id));
  const claims = new Map<string, Claim>();
  const add = (id: string, p: OpenCodeProcess, exact: boolean): void => {
    const c = claims.get(id);
    if (!c) {
      claims.set(id, { pid: p.pid, pids: [p.pid], exact, serverUrl: p.serverUrl, headless: p.cls.kind === 'serve' });
      return;
    }
    if (!c.pids.includes(p.pid)) c.pids.push(p.pid);
    c.serverUrl ??= p.serverUrl;
    if (exact && !c.exact) Object.assign(c, { pid: p.pid, exact: true, headless: p.cls.kind === 'serve' });
  };

  // 1. argv claims: the process that names the session is the one whose end ends it.
  for (const p of procs) {
    if (p.cls.sessionId && !p.cls.fork && p.cls.kind !== 'serve' && p.cls.kind !== 'other' && known.has(p.cls.sessionId)) {
      add(p.cls.sessionId, p, true);
    }
  }
  // 2. Sessions a server reports busy belong to that server's process (and its attached clients above).
  const claimedByServer = new Set<number>();
  for (const p of procs) {
    const busy = p.serverUrl && p.cls.kind !== 'attach' && p.cls.kind !== 'run' ? busyByServer.get(p.serverUrl) : undefined;
    for (const id of [...(busy ?? [])].sort()) {
      if (!known.has(id)) continue;
      add(id, p, true);
      claimedByServer.add(p.pid);
    }
  }
  // 3. Guesses by cwd for interactive and one-shot processes that named nothing.
  const guessers = procs
    .filter((p) => (p.cls.kind === 'tui' || p.cls.kind === 'run') && (!p.cls.sessionId || p.cls.fork) && p.cwd !== null)
    .filter((p) => !claimedByServer.has(p.pid))
    .reverse(); // newest first
  for (const p of guessers) {
    const free = sessions.filter((s) => s.directory === p.cwd && !claims.has(s.id));
    const pick = p.cls.continue
      ? free.sort((a, b) => (b.updatedMs ?? 0) - (a.updatedMs ?? 0) || cmp(a.id, b.id))[0]
      : free.filter((s) => (s.createdMs ?? 0) >= p.startedAtMs - CREATED_SLACK_MS)
        .sort((a, b) => (a.createdMs ?? 0) - (b.createdMs ?? 0) || cmp(a.id, b.id))[0];
    if (pick) add(pick.id, p, false);
  }
  for (const c of claims.values()) c.pids.sort((a, b) => a - b);
  return claims;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
