/**
 * inotify watching of a harness's directories for `SessionSource.watch`: recursive where the
 * directory exists; a directory that does not exist yet is awaited by watching its nearest existing
 * parent, and armed as soon as it appears. Events are coalesced (default 50 ms) into one callback
 * with the session ids seen in the changed file names (empty = "re-list everything").
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DirWatchOptions {
  /** Coalescing window in ms. Default: 50. */
  debounceMs?: number;
  /** Session id in a changed path, or null when the path names none. */
  idOf: (relPath: string) => string | null;
}

export function watchDirs(dirs: string[], onChange: (ids: string[]) => void, options: DirWatchOptions): () => void {
  const debounceMs = options.debounceMs ?? 50;
  const watchers = new Set<fs.FSWatcher>();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let ids = new Set<string>();
  let anything = false;

  const emit = (rel: string | null): void => {
    if (closed) return;
    const id = rel === null ? null : options.idOf(rel);
    if (id === null) anything = true; else ids.add(id);
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const out = anything ? [] : [...ids];
      ids = new Set();
      anything = false;
      if (!closed) onChange(out);
    }, debounceMs);
    timer.unref();
  };

  const open = (dir: string, recursive: boolean, onEvent: (name: string | null) => void): fs.FSWatcher | undefined => {
    try {
      const w = fs.watch(dir, { recursive, persistent: false }, (_event, name) => onEvent(name === null ? null : String(name)));
      watchers.add(w);
      w.on('error', () => { w.close(); watchers.delete(w); if (!closed) arm(dir); });
      return w;
    } catch {
      return undefined;
    }
  };

  const arm = (target: string): void => {
    if (closed) return;
    if (isDir(target) && open(target, true, (name) => emit(name))) return;
    // Wait for `target` from its nearest existing ancestor, then move the watch down.
    const parent = nearestExisting(path.dirname(target));
    if (parent === null) return;
    const w = open(parent, false, () => {
      if (!isDir(target) && nearestExisting(path.dirname(target)) === parent) return;
      w?.close();
      if (w) watchers.delete(w);
      arm(target);
      emit(null);
    });
  };

  for (const d of dirs) arm(d);
  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    for (const w of watchers) w.close();
    watchers.clear();
  };
}

function isDir(p: string): boolean {
  try { return fs.statSync(p).isDirectory(); } catch { return false; }
}

function nearestExisting(p: string): string | null {
  let cur = p;
  for (;;) {
    if (isDir(cur)) return cur;
    const up = path.dirname(cur);
    if (up === cur) return null;
    cur = up;
  }
}
