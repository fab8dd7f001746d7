/**
 * A directory-tree watch with one non-recursive inotify watch per DIRECTORY, never per file.
 * Node 20's `fs.watch(dir, { recursive: true })` on Linux walks the tree in JavaScript and opens a
 * watcher for every file: with thousands of transcripts that costs most of a second at start and
 * one inotify watch per file. Transcript trees are shallow (Claude: projects/<slug>/, Codex:
 * sessions/YYYY/MM/DD/), so watching directories down to `maxDepth` sees every file event.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface TreeWatchOptions {
  /** How many directory levels below the root to watch. Default: 4. */
  maxDepth?: number;
  /** Called when the root itself goes away or cannot be watched (the caller re-arms). */
  onRootGone?(): void;
}

export interface TreeWatch {
  close(): void;
  /** Number of directories watched (for tests and diagnostics). */
  size(): number;
}

/** `onEvent` gets the changed path relative to `root` (null when the OS did not say). */
export function watchTree(root: string, onEvent: (rel: string | null) => void, options: TreeWatchOptions = {}): TreeWatch {
  const maxDepth = options.maxDepth ?? 4;
  const watchers = new Map<string, fs.FSWatcher>();
  let closed = false;

  const add = (dir: string, depth: number): void => {
    if (closed || watchers.has(dir)) return;
    let w: fs.FSWatcher;
    try {
      w = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (closed) return;
        if (name === null) return onEvent(null);
        const full = path.join(dir, String(name));
        if (depth < maxDepth && !watchers.has(full)) {
          try {
            // A new subdirectory: watch it and whatever was created inside before the watch existed.
            if (fs.statSync(full).isDirectory()) addTree(full, depth + 1);
          } catch {}
        }
        onEvent(path.relative(root, full));
      });
    } catch {
      if (dir === root) options.onRootGone?.();
      return;
    }
    w.on('error', () => {
      w.close();
      watchers.delete(dir);
      if (dir === root && !closed) options.onRootGone?.();
    });
    watchers.set(dir, w);
  };

  const addTree = (dir: string, depth: number): void => {
    add(dir, depth);
    if (depth >= maxDepth) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory()) addTree(path.join(dir, e.name), depth + 1);
  };

  addTree(root, 0);
  return {
    close() {
      closed = true;
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
    size: () => watchers.size,
  };
}
