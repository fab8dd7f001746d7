/**
 * What sending needs from the rest of the daemon, as ports with real implementations wired in the
 * composition root (panes/, inbox/, the harness adapters) and fakes in unit tests.
 */
import type { PaneRef } from '../core/session.ts';

/**
 * Where typed text would go for one process, read afresh for the call (a new process table and pane
 * listing): the pane whose terminal it is in the foreground of, and whether it reads keys there.
 * - `not_foreground`: it is in the pane but another process group has the terminal (it is suspended,
 *   or a command it ran took the terminal): keys would reach that other program;
 * - `line_mode`: its terminal is in line mode (ICANON on): it is not reading keys, and the text would
 *   wait for whatever reads the terminal next, perhaps a shell;
 * - `unknown_mode`: its terminal's mode could not be read (not a pty, or not this machine's /proc).
 */
export type PaneTarget =
  | { ok: true; pane: PaneRef; startTicks: number }
  | { ok: false; reason: 'no_pane'; pane: null }
  | { ok: false; reason: 'not_foreground' | 'line_mode' | 'unknown_mode'; pane: PaneRef };

export interface PaneInput {
  /** Must not throw: a manager that cannot be listed counts as no pane. */
  target(pid: number): Promise<PaneTarget>;
  /** Pastes `text` into the pane, then Enter (see PaneManager.type). 'unsupported': its manager cannot type. */
  type(pane: PaneRef, text: string): Promise<'typed' | 'pane_not_found' | 'unsupported'>;
}

/** Opens a command in a new pane (the hub's PaneOps.opener): a dormant session resumed with a prompt. */
export interface PaneOpener {
  opener(): Promise<{ kind: string; open(req: { cwd: string; argv: string[]; label: string }): Promise<{ pane: PaneRef; pid: number | null }> } | null>;
}
