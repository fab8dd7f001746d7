/**
 * Watches `<gemini home>/tmp/` down to `<project>/chats/` (one inotify watch per directory, never
 * per file), debounced. Chat file names carry only 8 hex digits of the session id, so a change asks
 * for a re-list (ids: []), which the transcript index keeps cheap. A home without `tmp/` yet is
 * awaited from its nearest existing parent.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Disposer, SourceChange } from '../../../discovery/contract.ts';
import { watchTree } from '../../../discovery/fswatch/index.ts';

export interface GeminiWatchOptions {
  home: string;
  /** Debounce window in ms. Default: 50. */
  debounceMs?: number;
}

/** Chat files, project roots and new project or chats directories matter; logs and plans do not. */
function matters(rel: string | null): boolean {
  if (rel === null) return true;
  const parts = rel.split(path.sep);
  const name = parts[parts.length - 1] ?? '';
  return parts.length <= 2 ? name !== 'logs.json' && !name.startsWith('shell_history') : parts[1] === 'chats' && name.endsWith('.jsonl');
}

function nearestExisting(dir: string): string {
  let d = dir;
  while (!fs.existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  return d;
}

export function watchGemini(options: GeminiWatchOptions, onChange: (change: SourceChange) => void): Disposer {
  const tmp = path.join(options.home, 'tmp');
  const debounceMs = options.debounceMs ?? 50;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let stop: (() => void) | undefined;

  const note = (): void => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) onChange({ harness: 'gemini', ids: [] });
    }, debounceMs);
    timer.unref();
  };

  const attach = (): void => {
    stop?.();
    stop = undefined;
    if (closed) return;
    if (fs.existsSync(tmp)) {
      try {
        const tree = watchTree(tmp, (rel) => matters(rel) && note(), { maxDepth: 2, onRootGone: () => setImmediate(attach) });
        stop = () => tree.close();
      } catch {
        // Unwatchable (permissions): the hub's safety rescan still covers it.
      }
      return;
    }
    const parent = nearestExisting(path.dirname(tmp));
    try {
      // Something appeared under the ancestor: move the watch closer (or onto tmp/ itself).
      const w = fs.watch(parent, { persistent: false }, () => {
        if (nearestExisting(path.dirname(tmp)) === parent && !fs.existsSync(tmp)) return;
        setImmediate(attach);
        note();
      });
      w.on('error', () => setImmediate(attach));
      stop = () => w.close();
    } catch {
      // As above.
    }
  };

  attach();
  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    stop?.();
  };
}
