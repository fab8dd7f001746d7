/**
 * The pane-manager port (tmux, herdr). Adapters run the manager's own client or socket API with
 * argv arrays / JSON — never a shell string — and normalise panes into one shape.
 */
import type { ProcessTable } from '../discovery/proc/types.ts';
import type { PaneRef } from '../core/session.ts';

export type { PaneRef };

export interface PaneInfo {
  ref: PaneRef;
  /** pid of the pane's first process: its shell, or the argv it was started with. */
  shellPid: number;
  /**
   * Pids the manager itself reports as the pane's foreground processes (herdr does; tmux does not,
   * the map derives them from the tty's foreground process group instead). Empty when unknown.
   */
  foregroundPids: number[];
  /** Foreground command name as the manager reports it, when it does. */
  command: string | null;
  cwd: string | null;
  /** Window/tab/pane label, when set. */
  label: string | null;
}

export type FocusResult =
  | { outcome: 'focused'; pane: PaneRef; client: string | null }
  /** The pane was selected but no client is attached to show it; `hint` says how to attach. */
  | { outcome: 'no_client'; pane: PaneRef; hint: string }
  | { outcome: 'pane_not_found'; pane: PaneRef }
  /** The manager cannot focus panes (e.g. a herdr older than protocol 16). */
  | { outcome: 'unsupported'; pane: PaneRef; reason: string };

export interface OpenRequest {
  /** Absolute, existing directory the command starts in. */
  cwd: string;
  /** The command, executed directly (no shell). */
  argv: string[];
  /** Window/tab label; a plain string, never interpreted. */
  label: string;
}

export interface OpenResult {
  /** The pane the command started in. */
  pane: PaneRef;
  /** pid of the started command, when the manager reports it. */
  pid: number | null;
}

export interface PaneManager {
  /** 'tmux' or 'herdr'. */
  readonly kind: string;
  /** Whether a server is reachable now. Must not throw. */
  available(): Promise<boolean>;
  /**
   * Every pane of the server; [] when no server runs. With `table` (a process table read just
   * before), an adapter may answer from its previous listing when the table shows the same pane
   * processes (tmux: the same tty-owning children of its server), sparing a client exec per map
   * rebuild; without it the answer is always fresh.
   */
  listPanes(table?: ProcessTable): Promise<PaneInfo[]>;
  /** Brings the pane to the front of an attached client. */
  focus(paneId: string): Promise<FocusResult>;
  /** Starts `argv` in a new window/tab in `cwd` with `label`; rejects when the manager refuses. */
  open(request: OpenRequest): Promise<OpenResult>;
  /**
   * Types `text` into the pane as one paste — bracketed when the application asked for bracketed
   * paste, so its newlines do not submit early — then presses Enter. The text is data end to end
   * (stdin or a JSON field), never a command line. 'pane_not_found' when the pane is gone; rejects
   * on any other failure. Absent: this manager cannot type into panes.
   */
  type?(paneId: string, text: string): Promise<'typed' | 'pane_not_found'>;
}
