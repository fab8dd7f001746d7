/**
 * inotify watching of a Copilot home for `SessionSource.watch`: `session-state/` and each session
 * folder in it (events.jsonl, workspace.yaml, inuse lock files appearing and vanishing), and the home
 * itself for open-sessions-state.json. A folder that does not exist yet is awaited from its nearest
 * existing parent. Changes are debounced into one callback naming the session ids seen.
 * Taking or dropping an flock makes no inotify event: a SIGKILLed process is noticed by the hub's
 * liveness sweep of listed pids, and otherwise by the slow safety rescan.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Disposer, SourceChange } from '../../../discovery/contract.ts';
import { watchTree } from '../../../discovery/fswatch/index.ts';
import { isUuid } from '../../../core/ids.ts';
import { sessionStateDir } from './session-dirs.ts';

/** Debounce window in ms. */
const DEBOUNCE_MS = 50;

/** The session a path below session-state/ belongs to (its first segment), or null for anything else. */
export function idOfStatePath(rel: string): string | null {
  const first = rel.split('/')[0] ?? '';
  return isUuid(first) ? first.toLowerCase() : null;
}

export function watchCopilotHome(home: string, onChange: (c: SourceChange) => void, debounceMs = DEBOUNCE_MS): Disposer {
  const closers = new Set<() => void>();
  let timer: NodeJS.Timeout | null = null;
  let ids = new Set<string>();
  let everything = false;
  let closed = false;

  const fire = (id: string | null): void => {
    if (closed) return;
    if (id === null) everything = true;
    else ids.add(id);
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      const change: SourceChange = { harness: 'copilot', ids: everything ? [] : [...ids].sort() };
      ids = new Set();
      everything = false;
      if (!closed) onChange(change);
    }, debounceMs);
    timer.unref();
  };

  /** Watches `dir` now, or once it appears (waiting on its nearest existing ancestor). */
  const arm = (dir: string, start: () => (() => void) | null): void => {
    if (closed) return;
    if (existsSync(dir)) {
      const close = start();
      if (close) return void closers.add(close);
    }
    let parent = dirname(dir);
    let child = dir;
    while (!existsSync(parent) && dirname(parent) !== parent) {
      child = parent;
      parent = dirname(parent);
    }
    let w: FSWatcher | null = null;
    const close = () => w?.close();
    try {
      w = watch(parent, { persistent: false }, (_ev, file) => {
        if (file === null || String(file) !== basename(child) || !existsSync(child)) return;
        close();
        closers.delete(close);
        arm(dir, start);
        fire(null); // files may have been written before the watch existed
      });
      w.on('error', () => close());
      closers.add(close);
    } catch {}
  };

  const states = sessionStateDir(home);
  arm(states, () => {
    // session-state/<id>/<file>: one level of folders below the root.
    const tree = watchTree(states, (rel) => fire(rel === null ? null : idOfStatePath(rel)), { maxDepth: 1, onRootGone: () => fire(null) });
    return () => tree.close();
  });
  arm(home, () => {
    try {
      const w = watch(home, { persistent: false }, (_ev, file) => {
        if (file === null || String(file).startsWith('open-sessions-state.json')) fire(null);
      });
      w.on('error', () => w.close());
      return () => w.close();
    } catch {
      return null;
    }
  });

  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    for (const c of closers) c();
    closers.clear();
  };
}

