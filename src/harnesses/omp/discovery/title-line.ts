/**
 * omp's first line is a padded `title` record rewritten in place when the title changes, so the
 * file size may not change and the incremental reader, past that line, would never see it again.
 * After any change the first line alone is re-read.
 */
import fs from 'node:fs';
import { openRegularFile } from '../../../discovery/regular-file/index.ts';
import { oneLine } from '../../pi/discovery/index.ts';
import type { TranscriptSummary } from '../../pi/discovery/index.ts';

/** Longest first line looked at; the real one is a title plus ~200 bytes of padding. */
const MAX_HEAD = 16 * 1024;

/** The non-empty title of the first line, or null. Never throws. */
export function readTitleLine(file: string): string | null {
  let fd: number | undefined;
  try {
    fd = openRegularFile(file).fd; // a FIFO swapped in since the listing is refused, never waited on
    const buf = Buffer.alloc(MAX_HEAD);
    const n = fs.readSync(fd, buf, 0, MAX_HEAD, 0);
    const nl = buf.subarray(0, n).indexOf(10);
    if (nl === -1) return null;
    const rec: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, nl)));
    if (typeof rec !== 'object' || rec === null) return null;
    const r = rec as Record<string, unknown>;
    return r['type'] === 'title' && typeof r['title'] === 'string' && r['title'].trim() !== '' ? r['title'].trim() : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** omp rewrites its title line in place: after each read of a session file, the title comes from it. */
export function ompAfterRead(path: string, summary: TranscriptSummary): void {
  const title = readTitleLine(path);
  if (title !== null) summary.title = oneLine(title, 200);
}
