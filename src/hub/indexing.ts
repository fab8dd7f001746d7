/**
 * What the hub knows of the sources' cold indexes: the progress figure shown on the board, in the TUI
 * and by `muster status` ("indexed 312 / 800 transcripts"), published as `index.progress.changed` at
 * most every `publishMs` (and always at the start and the end), and the re-listing that makes the
 * sessions of each indexed batch appear — at most every `relistMs` per source while it reads (and at
 * most every ten listing times).
 */
import type { Harness } from '../core/session.ts';
import type { IndexProgress } from '../discovery/contract.ts';
import type { IndexingFigure } from '../core/indexing.ts';

/** The totals over every source's cold index, and each source's own figure. */
export interface IndexingStatus extends IndexingFigure {
  /** Each source's figure (sources that ran a cold index since the daemon started). */
  sources: IndexProgress[];
}

export interface IndexingTrackerOptions {
  publish(status: IndexingStatus): void;
  /** Asks for a re-list of the harness's source. */
  relist(harness: Harness): void;
  /** Least time between two published figures, ms. Default: 100. */
  publishMs?: number;
  /** Least time between two re-lists of one source while it indexes, ms. Default: 250. */
  relistMs?: number;
  /**
   * How long the source's last listing took, ms (null: not known). Re-lists wait at least ten times
   * that, so listing takes at most about a tenth of the thread that also writes the indexed batches.
   */
  lastListMs?(harness: Harness): number | null;
}

export interface IndexingTracker {
  progress(p: IndexProgress): void;
  /** The source's cold index is over and its last batch listed (the caller re-lists first). */
  finished(harness: Harness): void;
  status(): IndexingStatus;
  /** Resolves once no cold index runs (at once when none does; also when the tracker closes). */
  idle(): Promise<void>;
  close(): void;
}

export function createIndexingTracker(opts: IndexingTrackerOptions): IndexingTracker {
  const publishMs = opts.publishMs ?? 100;
  const relistMs = opts.relistMs ?? 250;
  const bySource = new Map<Harness, IndexProgress>();
  const running = new Set<Harness>();
  const relistTimers = new Map<Harness, ReturnType<typeof setTimeout>>();
  let publishTimer: ReturnType<typeof setTimeout> | null = null;
  let lastPublish = 0;
  let closed = false;
  let waiters: Array<() => void> = [];

  const wake = (): void => {
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };

  const status = (): IndexingStatus => {
    const sources = [...bySource.values()];
    const sum = (k: 'done' | 'total' | 'bytesDone' | 'bytesTotal'): number => sources.reduce((n, p) => n + p[k], 0);
    return { active: running.size > 0, done: sum('done'), total: sum('total'), bytesDone: sum('bytesDone'), bytesTotal: sum('bytesTotal'), sources: sources.map((p) => ({ ...p })) };
  };

  const publishNow = (): void => {
    if (publishTimer) clearTimeout(publishTimer);
    publishTimer = null;
    lastPublish = Date.now();
    opts.publish(status());
  };

  const publishSoon = (): void => {
    if (closed || publishTimer) return;
    const wait = lastPublish + publishMs - Date.now();
    if (wait <= 0) return publishNow();
    publishTimer = setTimeout(publishNow, wait);
    publishTimer.unref?.();
  };

  const relistSoon = (harness: Harness): void => {
    if (closed || relistTimers.has(harness)) return;
    const t = setTimeout(() => {
      relistTimers.delete(harness);
      opts.relist(harness);
    }, Math.max(relistMs, 10 * (opts.lastListMs?.(harness) ?? 0)));
    t.unref?.();
    relistTimers.set(harness, t);
  };

  return {
    progress(p) {
      if (closed) return;
      const first = !running.has(p.harness);
      running.add(p.harness);
      bySource.set(p.harness, { ...p });
      if (first) publishNow();
      else {
        publishSoon();
        relistSoon(p.harness);
      }
    },
    finished(harness) {
      if (closed || !running.delete(harness)) return;
      const t = relistTimers.get(harness);
      if (t) clearTimeout(t);
      relistTimers.delete(harness);
      publishNow();
      if (running.size === 0) wake();
    },
    status,
    idle: () => (closed || running.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    close() {
      closed = true;
      wake();
      if (publishTimer) clearTimeout(publishTimer);
      for (const t of relistTimers.values()) clearTimeout(t);
      relistTimers.clear();
    },
  };
}
