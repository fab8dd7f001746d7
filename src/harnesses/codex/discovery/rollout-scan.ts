/**
 * Finds rollout files: `sessions/YYYY/MM/DD/rollout-*.jsonl` and `archived_sessions/` (flat or dated).
 * Tolerant: an unreadable directory or a directory named like a rollout is counted and skipped.
 */
import { readdirSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { NotRegularFileError, outsideMessage, resolvesInside } from '../../../discovery/regular-file/index.ts';
import { threadIdFromRolloutName } from './rollout.ts';

export interface RolloutFile {
  threadId: string;
  path: string;
  archived: boolean;
}

/** Deepest level walked under a root: YYYY/MM/DD plus one spare. */
const MAX_DEPTH = 4;

/**
 * `onSkip` hears what cannot be walked or read: the error (NotRegularFileError for a directory named
 * like a rollout). Linked directories are not walked; a linked rollout is kept only when it resolves
 * inside `home`.
 */
export function findRollouts(home: string, onSkip: (path: string, e: unknown) => void): RolloutFile[] {
  const out: RolloutFile[] = [];
  const walk = (dir: string, depth: number, archived: boolean): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' || depth > 0) onSkip(dir, e);
      return;
    }
    for (const ent of entries) {
      const path = join(dir, ent.name);
      if (ent.isDirectory()) {
        const id = threadIdFromRolloutName(ent.name);
        if (id !== null) onSkip(path, new NotRegularFileError(path, 'directory'));
        else if (depth < MAX_DEPTH) walk(path, depth + 1, archived);
        continue;
      }
      const id = threadIdFromRolloutName(ent.name);
      if (id === null) continue;
      if (ent.isSymbolicLink() && !resolvesInside(path, [home])) { onSkip(path, new Error(outsideMessage(path))); continue; }
      // Symlinks, FIFOs and other types are stat'ed by the reader, which refuses and counts all but regular files.
      out.push({ threadId: id, path, archived });
    }
  };
  walk(join(home, 'sessions'), 0, false);
  walk(join(home, 'archived_sessions'), 0, true);
  return out;
}
