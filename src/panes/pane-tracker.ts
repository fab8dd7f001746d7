/**
 * Keeps the pid → pane map of every reachable pane manager. Rebuilds are coalesced:
 * at most one running and one queued; every caller that arrives while one is queued shares it, so
 * a burst of focus requests costs two rebuilds, not one per request.
 */
import type { ProcPort, ProcessTable } from '../discovery/proc/types.ts';
import { buildPaneMap, type PaneMap } from './pane-map.ts';
import type { PaneInfo, PaneManager } from './types.ts';

export interface PaneTrackerOptions {
  managers: PaneManager[];
  proc: ProcPort;
  /** The process tree the map walks. Default: proc.snapshot(). */
  table?: () => ProcessTable;
  /** A map older than this is rebuilt in the background by `current()`, ms. Default: 2000. */
  maxAgeMs?: number;
  clock?: () => number;
  log?(line: string): void;
}

export interface PaneTracker {
  /** The last map built (empty before the first); starts a background rebuild when stale. */
  current(): PaneMap;
  /**
   * A map built after this call began. `relist`: every manager lists its panes afresh instead of
   * reusing a listing the process table still vouches for (a pane reported gone, e.g.).
   */
  rebuild(options?: { relist?: boolean }): Promise<PaneMap>;
  /** How many rebuilds actually ran (for tests and diagnostics). */
  readonly rebuilds: number;
}

export function createPaneTracker(opts: PaneTrackerOptions): PaneTracker {
  const clock = opts.clock ?? Date.now;
  const maxAge = opts.maxAgeMs ?? 2000;
  let last: PaneMap = buildPaneMap([], { byPid: new Map(), children: new Map(), bootTimeMs: 0, takenAtMs: 0 }, 0);
  let running: Promise<PaneMap> | null = null;
  let queued: Promise<PaneMap> | null = null;
  let count = 0;
  let relist = false;

  async function build(): Promise<PaneMap> {
    count++;
    // The table first: managers may answer from their last listing when it shows the same panes.
    const table = opts.table ? opts.table() : opts.proc.snapshot();
    const vouch = relist ? undefined : table;
    relist = false;
    const lists = await Promise.all(
      opts.managers.map((m) =>
        m.listPanes(vouch).catch((e: unknown) => {
          opts.log?.(`[muster] ${m.kind} panes unavailable: ${(e as Error).message}`);
          return [] as PaneInfo[];
        }),
      ),
    );
    last = buildPaneMap(lists.flat(), table, clock());
    return last;
  }

  function start(): Promise<PaneMap> {
    running = build().finally(() => {
      running = null;
    });
    return running;
  }

  const tracker: PaneTracker = {
    current() {
      if (clock() - last.builtAtMs > maxAge && !running) void tracker.rebuild().catch(() => {});
      return last;
    },
    rebuild(options) {
      if (options?.relist) relist = true;
      if (!running) return start();
      // One is running with a table read before this call: queue exactly one more after it.
      queued ??= running
        .catch(() => undefined)
        .then(() => {
          queued = null;
          return start();
        });
      return queued;
    },
    get rebuilds() {
      return count;
    },
  };
  return tracker;
}
