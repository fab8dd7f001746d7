/**
 * The pane managers of this machine behind the hub's PaneOps port: herdr when its socket answers,
 * tmux (the user's server, or an explicit socket) otherwise, and one coalesced pid → pane map
 * over all of them.
 */
import type { PaneFocus, PaneOps } from '../hub/actions.ts';
import type { PaneInput, PaneTarget } from '../send/ports.ts';
import type { ProcPort, ProcessTable } from '../discovery/proc/types.ts';
import { createHerdrPanes } from './herdr.ts';
import { paneOfPids } from './pane-map.ts';
import { createPaneTracker, type PaneTracker } from './pane-tracker.ts';
import { createTmuxPanes } from './tmux.ts';
import { readProcTree } from './proc-tree.ts';
import { createTtyModeReader, type TtyMode } from './tty-mode.ts';
import type { PaneManager, PaneRef } from './types.ts';

export interface PaneServiceOptions {
  proc: ProcPort;
  /** Environment to find the servers from (TMUX, HERDR_SOCKET_PATH…). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** tmux socket; overrides `env` (MUSTER_TMUX_SOCKET is read by the composition root). */
  tmuxSocket?: string;
  /** Managers to use instead of the defaults (tests). Order = preference for opening panes. */
  managers?: PaneManager[];
  /** Process tree for the map. Default: a stat-only /proc read on Linux, else proc.snapshot(). */
  table?: () => ProcessTable;
  /** The mode of the terminal a process reads (tty-mode.ts). Default: /proc/<pid>/fd/0 and `stty -F`. */
  ttyMode?: (pid: number) => Promise<TtyMode | null>;
  log?(line: string): void;
}

export interface PaneService extends PaneOps, PaneInput {
  readonly managers: readonly PaneManager[];
  readonly tracker: PaneTracker;
}

export function createPaneService(opts: PaneServiceOptions): PaneService {
  const env = opts.env ?? process.env;
  const managers = opts.managers ?? [createHerdrPanes({ env }), createTmuxPanes({ env, socket: opts.tmuxSocket })];
  const table = opts.table ?? (process.platform === 'linux' ? () => readProcTree() : undefined);
  const tracker = createPaneTracker({ managers, proc: opts.proc, table, log: opts.log });
  const adHoc = new Map<string, PaneManager>();
  const ttyMode = opts.ttyMode ?? createTtyModeReader();

  /** The manager a pane belongs to; a tmux pane on another socket gets its own adapter. */
  function managerOf(pane: PaneRef): PaneManager | undefined {
    const own = managers.find((m) => m.kind === pane.manager && (pane.socket === undefined || (m as { socket?: string | null }).socket === pane.socket));
    if (own || pane.manager !== 'tmux' || !pane.socket) return own;
    let m = adHoc.get(pane.socket);
    if (!m) adHoc.set(pane.socket, (m = createTmuxPanes({ socket: pane.socket })));
    return m;
  }

  return {
    managers,
    tracker,
    peek: (pids) => paneOfPids(tracker.current(), pids),
    async locate(pids, fresh) {
      // A pid never changes pane, and tmux never reuses a pane id while the server runs: a cached
      // answer is safe to try first; the caller asks again with fresh=true when the pane is gone.
      if (!fresh) {
        const cached = paneOfPids(tracker.current(), pids);
        if (cached) return cached;
      }
      return paneOfPids(await tracker.rebuild({ relist: fresh === true }), pids);
    },
    async focus(pane): Promise<PaneFocus> {
      const m = managerOf(pane);
      if (!m) return { outcome: 'unsupported', pane, reason: `no ${pane.manager} server is reachable for pane ${pane.id}` };
      return m.focus(pane.id);
    },
    async opener() {
      for (const m of managers) if (await m.available()) return m;
      return null;
    },
    async target(pid): Promise<PaneTarget> {
      // Fresh: a new table and new listings, so a pane that changed hands since the last map is seen.
      const map = await tracker.rebuild({ relist: true }).catch(() => null);
      const any = map?.get(pid);
      const info = map?.process(pid);
      if (!map || !any) return { ok: false, reason: 'no_pane', pane: null };
      const pane = map.foreground(pid);
      if (!pane || !info) return { ok: false, reason: 'not_foreground', pane: any };
      const mode = await ttyMode(pid);
      if (mode !== 'keys') return { ok: false, reason: mode === 'lines' ? 'line_mode' : 'unknown_mode', pane };
      return { ok: true, pane, startTicks: info.startTicks };
    },
    async type(pane, text) {
      const m = managerOf(pane);
      if (!m?.type) return 'unsupported';
      return m.type(pane.id, text);
    },
  };
}
