/**
 * `muster new`, `POST /api/sessions/new`, the board's New session form and the TUI's `n`: a new agent
 * session opened through the wrapper (`muster <harness> --name NAME`, so it is wired: MCP, hooks,
 * identity, name) in a new pane of the pane manager, in a directory or a new git worktree of it, with
 * a first prompt and optionally a goal that drives it from its first turn.
 */
import type { Harness, PaneRef, Session } from '../core/session.ts';
import type { Goal } from '../goals/index.ts';
import type { WorktreeRecord } from '../worktrees/index.ts';

export interface NewGoal {
  objective: string;
  /** As `muster goal set` takes them (normalised by the goals capability). */
  tokenBudget?: unknown;
  maxTurns?: unknown;
  auditor?: string;
}

export interface NewSessionRequest {
  harness: Harness;
  /** Absolute path of an existing directory (the CLI resolves a relative one against its own cwd). */
  cwd: string;
  /** A branch: the session starts in a new git worktree of `cwd`'s repository for it. */
  worktree?: string;
  /** The session's name (the wrapper's `--name`): a label, at most 80 characters. */
  name?: string;
  /** The first prompt, passed as the harness's initial prompt argument. Default: the goal's objective. */
  prompt?: string;
  goal?: NewGoal;
  /** Bring the new pane to the front of the attached terminal. */
  focus?: boolean;
  /** Seconds to wait for the session id when the harness does not take one up front (0–20). Default: 0. */
  waitSeconds?: number;
}

export interface NewSessionAnswer {
  outcome: 'started';
  /** The wrapper's launch: known at once, the session's id follows from its first hook event. */
  launchId: string;
  harness: Harness;
  /** Pre-assigned (Claude, Gemini CLI, Copilot), or learnt within `waitSeconds`; else null for now. */
  sessionId: string | null;
  /** The session as listed, when it is already. */
  session: Session | null;
  name: string | null;
  /** Where the harness runs (inside the worktree when one was made). */
  cwd: string;
  pane: PaneRef;
  /** `tmux` or `herdr`. */
  manager: string;
  /** The worktree made for it, or null. */
  worktree: WorktreeRecord | null;
  /** The goal, once set (at once when the id was pre-assigned or arrived while waiting). */
  goal: Goal | null;
  /** True while the goal waits for the session's id (it is set on the session's first hook event). */
  goalPending: boolean;
  /** How bringing the pane to the front went, when asked; null when not asked. */
  focus: { outcome: string; message?: string } | null;
}

/** Whether a goal on a new session of `harness` would be driven; otherwise what to run first. */
export type GoalReadiness = { ok: true } | { ok: false; message: string; fix: string[] };
