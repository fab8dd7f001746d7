/**
 * inotify watching of CODEX_HOME (fs.watch; no polling loop per session). Watches `sessions/` and
 * `archived_sessions/` recursively, `thread-writer-locks/`, and CODEX_HOME itself for the name index
 * and the SQLite stores. A directory that does not exist yet is awaited by watching its nearest
 * existing parent and re-arming when it appears. Changes are debounced into one callback.
 * Note: taking or dropping an flock makes no inotify event; a SIGKILLed holder is only noticed by the
 * caller's slow safety rescan (lock files appear and vanish on clean load/unload, which are seen).
 */
import { existsSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Disposer, SourceChange } from '../../../discovery/contract.ts';
import { watchTree } from '../../../discovery/fswatch/index.ts';
import { threadIdFromRolloutName } from './rollout.ts';

/** Debounce window in ms. */
const DEBOUNCE_MS = 50;
/** Files directly under CODEX_HOME whose change matters (logs_2.sqlite churns and is ignored). */
const HOME_FILES = /^(session_index\.jsonl|state_5\.sqlite(-wal)?|goals_1\.sqlite(-wal)?)$/;
const LOCK_NAME = /^([0-9a-f-]{36})\.lock$/i;

export function watchCodexHome(home: string, onChange: (c: SourceChange) => void, debounceMs = DEBOUNCE_MS): Disposer {
  const watchers = new Set<FSWatcher>();
  let timer: NodeJS.Timeout | null = null;
  let ids = new Set<string>();
  let everything = false;
  let closed = false;

  const fire = (id: string | null): void => {
    if (closed) return;
    if (id === null) everything = true; else ids.add(id);
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      const change: SourceChange = { harness: 'codex', ids: everything ? [] : [...ids].sort() };
      ids = new Set();
      everything = false;
      if (!closed) onChange(change);
    }, debounceMs);
    timer.unref();
  };

  const open = (path: string, recursive: boolean, onEvent: (file: string | null) => void): FSWatcher | null => {
    try {
      if (recursive) {
        // sessions/YYYY/MM/DD: per-directory watches, not Node 20's per-file recursive watch.
        const tree = watchTree(path, onEvent, { maxDepth: 3, onRootGone: () => fire(null) });
        const w = { close: () => tree.close(), on: () => w } as unknown as FSWatcher;
        watchers.add(w);
        return w;
      }
      const w = watch(path, { persistent: false }, (_ev, file) => onEvent(file === null ? null : String(file)));
      w.on('error', () => { w.close(); watchers.delete(w); });
      watchers.add(w);
      return w;
    } catch {
      return null;
    }
  };

  /** Watches `dir` (or waits for it through its nearest existing ancestor). */
  const arm = (dir: string, recursive: boolean, onEvent: (file: string | null) => void): void => {
    if (closed) return;
    if (existsSync(dir) && open(dir, recursive, onEvent)) return;
    let parent = dirname(dir);
    let child = dir;
    while (!existsSync(parent) && dirname(parent) !== parent) { child = parent; parent = dirname(parent); }
    const w = open(parent, false, (file) => {
      if (file !== basename(child) || !existsSync(child)) return;
      w?.close();
      if (w) watchers.delete(w);
      arm(dir, recursive, onEvent);
      fire(null); // files may have been written before the watcher existed
    });
  };

  const byRollout = (file: string | null): void => fire(file === null ? null : threadIdFromRolloutName(basename(file)));
  arm(join(home, 'sessions'), true, byRollout);
  arm(join(home, 'archived_sessions'), true, byRollout);
  arm(join(home, 'thread-writer-locks'), false, (file) => {
    const m = file === null ? null : LOCK_NAME.exec(file);
    if (file === null || m) fire(m ? (m[1] as string).toLowerCase() : null);
  });
  arm(home, false, (file) => { if (file === null || HOME_FILES.test(file)) fire(null); });

  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    for (const w of watchers) w.close();
    watchers.clear();
  };
}
