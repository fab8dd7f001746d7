/**
 * Watching OpenCode's store for changes (inotify through fs.watch, no polling): the directory holding
 * `opencode.db` (every commit touches `opencode.db-wal`), and the legacy `storage/` tree recursively.
 * A directory that does not exist yet is waited for by watching its nearest existing ancestor.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface WatchTarget {
  dir: string;
  recursive: boolean;
  /** Only events for names passing this filter count (non-recursive targets); default: all. */
  accept?: (name: string) => boolean;
}

/** Watches every target; calls `onChange` at most once per `debounceMs`. Returns an idempotent disposer. */
export function watchTargets(targets: WatchTarget[], onChange: () => void, debounceMs = 50): () => void {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const fire = (): void => {
    if (closed || timer) return;
    timer = setTimeout(() => { timer = null; if (!closed) onChange(); }, debounceMs);
    timer.unref();
  };
  const disposers = targets.map((t) => armTarget(t, fire, () => closed));
  return () => {
    if (closed) return;
    closed = true;
    if (timer) clearTimeout(timer);
    for (const d of disposers) d();
  };
}

function armTarget(t: WatchTarget, fire: () => void, isClosed: () => boolean): () => void {
  let current: fs.FSWatcher | null = null;
  const close = (): void => { try { current?.close(); } catch { /* already closed */ } current = null; };
  const arm = (): void => {
    if (isClosed()) return;
    close();
    const anchor = nearestExisting(t.dir);
    if (anchor === null) return;
    try {
      if (anchor === t.dir) {
        current = fs.watch(t.dir, { recursive: t.recursive, persistent: false }, (_e, name) => {
          if (!t.accept || t.recursive || (name !== null && t.accept(String(name)))) fire();
        });
      } else {
        // Wait for the missing directory: any change under the ancestor may create it or a step towards it.
        current = fs.watch(anchor, { persistent: false }, () => {
          if (nearestExisting(t.dir) === anchor) return;
          arm();
          if (fs.existsSync(t.dir)) fire();
        });
      }
      // The watched directory itself going away (or an inotify error): re-arm on its nearest ancestor.
      current.on('error', () => setImmediate(arm));
    } catch {
      current = null; // e.g. EACCES: the caller's periodic rescan still finds changes
    }
  };
  arm();
  return close;
}

function nearestExisting(dir: string): string | null {
  let d = path.resolve(dir);
  for (;;) {
    try {
      if (fs.statSync(d).isDirectory()) return d;
    } catch { /* missing: go up */ }
    const up = path.dirname(d);
    if (up === d) return null;
    d = up;
  }
}
