/**
 * A transcript can lack a `cwd` (it holds only metadata records, or was cut short). Claude names each
 * project folder after the directory it was started in, so another transcript of the same folder
 * knows the directory: the session borrows its cwd. A cwd whose slug is the folder's name is preferred
 * (a session may have moved on with `cd`), then the most recently written. Until one is known the
 * session's directory is unknown (cwd null), which resume reports as such.
 */
import path from 'node:path';
import { cwdToSlug } from './slug.ts';
import type { ScannedTranscript } from './transcript-scan.ts';

/** Project folder → the cwd its transcripts without one borrow. */
export function folderCwds(transcripts: readonly ScannedTranscript[]): Map<string, string> {
  const best = new Map<string, { cwd: string; rank: number; mtimeMs: number }>();
  for (const t of transcripts) {
    const cwd = t.summary.cwd;
    if (!cwd) continue;
    const folder = path.dirname(t.path);
    const rank = cwdToSlug(cwd) === path.basename(folder) ? 1 : 0;
    const b = best.get(folder);
    if (!b || rank > b.rank || (rank === b.rank && t.mtimeMs > b.mtimeMs)) best.set(folder, { cwd, rank, mtimeMs: t.mtimeMs });
  }
  return new Map([...best].map(([folder, b]) => [folder, b.cwd]));
}
