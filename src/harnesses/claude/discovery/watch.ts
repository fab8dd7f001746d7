/**
 * Watches Claude's `sessions/` (registry) and `projects/` (transcripts) with inotify (fs.watch),
 * debounced, reporting the session ids that changed. A directory that does not exist yet is
 * awaited by watching its nearest existing parent; once it appears the real watch is attached.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Disposer, SourceChange } from '../../../discovery/contract.ts';
import { isUuid } from '../../../core/ids.ts';
import { parseRegistryEntry, registryFilePid } from './registry.ts';
import { watchTree } from '../../../discovery/fswatch/index.ts';
import { readRegularText } from '../../../discovery/regular-file/index.ts';

export interface ClaudeWatchOptions {
  home: string;
  /** Debounce window in ms. Default: 50. */
  debounceMs?: number;
}

/** An fs.watch on `dir` that survives the directory not existing yet or being removed. */
function watchDir(dir: string, recursive: boolean, onEvent: (file: string | null) => void): Disposer {
  let watcher: fs.FSWatcher | undefined;
  let closed = false;
  const attach = (): void => {
    if (closed) return;
    watcher?.close();
    watcher = undefined;
    let target = dir;
    while (!fs.existsSync(target) && path.dirname(target) !== target) target = path.dirname(target);
    const waiting = target !== dir;
    try {
      if (recursive && !waiting) {
        // Per-directory watches (projects/<slug>/), not Node 20's per-file recursive watch.
        const tree = watchTree(target, (name) => onEvent(name), { maxDepth: 1, onRootGone: () => setImmediate(attach) });
        watcher = { close: () => tree.close() } as fs.FSWatcher;
        return;
      }
      watcher = fs.watch(target, { persistent: false }, (_event, name) => {
        if (waiting) {
          // Something appeared under an ancestor: move the watch closer (or onto the directory itself).
          const appeared = fs.existsSync(dir);
          attach();
          if (appeared) onEvent(null);
          return;
        }
        onEvent(name === null ? null : String(name));
      });
      watcher.on('error', () => setImmediate(attach)); // e.g. the directory was removed
    } catch {
      watcher = undefined; // unwatchable (permissions): the caller's safety rescan still covers it
    }
  };
  attach();
  return () => {
    closed = true;
    watcher?.close();
  };
}

/** The session id a changed path names, or null when it cannot be told without a re-list. */
function idOfRegistryFile(sessionsDir: string, name: string): string | null {
  const pid = registryFilePid(path.basename(name));
  if (pid === null) return null;
  try {
    // Never a blocking read: a FIFO named like an entry must not freeze the daemon from a watch event.
    const parsed = parseRegistryEntry(readRegularText(path.join(sessionsDir, name), 1024 * 1024), pid);
    return parsed.ok ? parsed.entry.sessionId : null;
  } catch {
    return null; // removed (the process exited) or not a file: which session is unknown here
  }
}

function idOfTranscript(name: string): string | null {
  const m = /([^/\\]+)\.jsonl$/.exec(name);
  return m?.[1] && isUuid(m[1]) ? m[1].toLowerCase() : null;
}

export function watchClaude(options: ClaudeWatchOptions, onChange: (change: SourceChange) => void): Disposer {
  const sessionsDir = path.join(options.home, 'sessions');
  const projectsDir = path.join(options.home, 'projects');
  const debounceMs = options.debounceMs ?? 50;
  let pending: Set<string> | null = null;
  let unknown = false;
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;

  const flush = (): void => {
    timer = undefined;
    if (disposed || pending === null) return;
    const ids = unknown ? [] : [...pending];
    pending = null;
    unknown = false;
    onChange({ harness: 'claude', ids });
  };
  const note = (id: string | null): void => {
    pending ??= new Set();
    if (id === null) unknown = true;
    else pending.add(id);
    if (!timer) {
      timer = setTimeout(flush, debounceMs);
      timer.unref();
    }
  };

  const stops = [
    watchDir(sessionsDir, false, (name) => {
      if (name === null) return note(null);
      if (name.endsWith('.key')) return; // the socket token file beside each entry
      note(idOfRegistryFile(sessionsDir, name));
    }),
    watchDir(projectsDir, true, (name) => {
      if (name === null) return note(null);
      const id = idOfTranscript(name);
      // Only transcripts matter; memory/ and other side files are ignored.
      if (id !== null) note(id);
      else if (!name.includes(path.sep) && !name.includes('.')) note(null); // a new project dir
    }),
  ];
  return () => {
    disposed = true;
    if (timer) clearTimeout(timer);
    for (const stop of stops) void stop();
  };
}
