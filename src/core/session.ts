/**
 * The one normalised shape every source produces; every layer may import it. Harness quirks stay
 * inside each harness's adapter (src/harnesses/); everything above sees only this.
 */
import type { Harness } from '../harnesses/registry.ts';

/** A harness's name: one of the registry's adapters (src/harnesses/registry.ts). */
export type { Harness };

export const STATUSES = ['working', 'waiting', 'idle', 'stuck', 'ended'] as const;
export type SessionStatus = (typeof STATUSES)[number];

export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface PaneRef {
  /** 'tmux' or 'herdr'. */
  manager: string;
  /** The manager's pane id, e.g. tmux `%3`. */
  id: string;
  /** Optional socket/server the pane lives on. */
  socket?: string;
}

/** One process that has a session open. */
export interface SessionProcess {
  pid: number;
  status: SessionStatus;
  /** Why this process waits; null unless its status is waiting. */
  waitingFor: string | null;
  /** ISO time this process's status began, when known. */
  statusSince: string | null;
  pane: PaneRef | null;
  /** ISO start time of the process, when known. */
  startedAt: string | null;
}

export interface Session {
  harness: Harness;
  id: string;
  title: string;
  cwd: string | null;
  repoRoot: string | null;
  branch: string | null;
  live: boolean;
  /** Main process of a live session; null when dormant. */
  pid: number | null;
  /** Every process that has this session open (a session resumed twice has two). */
  pids: number[];
  status: SessionStatus;
  /** Why the session waits (permission prompt text, question...); null unless status is waiting or stuck. */
  waitingFor: string | null;
  /**
   * False when the session's process is live but nothing reports what it is doing (a Gemini CLI run
   * without Muster's hooks): `status` is then `idle` by convention and means "unknown", never a
   * guess. Absent or true: the status is known.
   */
  statusKnown?: boolean;
  /** ISO time the current status began, when known. */
  statusSince: string | null;
  startedAt: string | null;
  lastActivityAt: string | null;
  model: string | null;
  tokens: TokenCounts;
  costUsd: number | null;
  prLinks: string[];
  pane: PaneRef | null;
  /** True only for a live session whose process is verified to be this harness (executable or argv, and start time). */
  canEnd: boolean;
  /**
   * True when the live process is verified to be this harness — the test `canEnd` rests on — where
   * Muster still will not signal it (an embedded Codex TUI dies uncleanly on a signal). Absent:
   * `canEnd` says whether the process is verified. `muster send` types only into a verified process.
   */
  processVerified?: boolean;
  /** The harness's own resume command as an argv array (never a shell string), run in `cwd`. */
  resumeArgv: string[] | null;
  /** Prompt-cache expiry (Claude: last assistant message + 5 min), when known. */
  cacheExpiresAt?: string | null;
  /**
   * The session this one was forked from (Claude `--resume … --fork-session`), when known. The
   * history it copied is counted in that session's tokens and cost, not in this one's.
   */
  forkedFrom?: string | null;
  /** True when the harness's own server can take a prompt for this session now (OpenCode `serve` / `--port`), live or idle. */
  promptable?: boolean;
  /**
   * Each live process with its own status and pane, for sources that can act on one of them alone
   * (focus and end with a pid); a session resumed in two processes at once has two. Absent for
   * sources that only act on the whole session; empty when dormant.
   */
  processes?: SessionProcess[];
  /**
   * Fleet (a host that joined one): the name of the host that runs this session. Absent on a host that
   * never joined; on a joined host its own sessions carry its name too.
   */
  host?: string;
  /** Fleet: the owning host's id, on another host's session only (its absence means "this host's"). */
  hostId?: string;
  /** Fleet: false while the owning host has been silent for 30 s — the row is its last known state. */
  hostReachable?: boolean;
  /** Fleet: true when the owning host refuses commands from other hosts (its setting fleetAcceptCommands). */
  readOnly?: boolean;
}

export function emptyTokens(): TokenCounts {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

/** Adds `t` into `into`, count by count (named, not looped over by key: the folds call it per record). */
export function addTokens(into: TokenCounts, t: TokenCounts): void {
  into.input += t.input;
  into.output += t.output;
  into.cacheRead += t.cacheRead;
  into.cacheWrite += t.cacheWrite;
}
