/**
 * "Status from the transcript tail": parse only the last bytes of a JSONL file, so a source can
 * tell what a session is doing now without reading a 100 MB transcript from the start.
 */
import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from '../regular-file/index.ts';
import { scanJsonlFile } from './jsonl-reader.ts';
import type { JsonlReadOptions } from './jsonl-reader.ts';

export type JsonlTailOptions = Pick<JsonlReadOptions, 'ignore' | 'headBytes' | 'maxLineBytes'>;

/**
 * Parsed records of the complete lines within the last `maxBytes` of `path`, oldest first.
 * The first line is dropped when the window starts inside it; a final line without '\n' is
 * left out, as readJsonlFrom does. Throws only when the file cannot be read or is not a regular file.
 */
export function readJsonlTail(path: string, maxBytes: number, options: JsonlTailOptions = {}): unknown[] {
  const { start, midLine } = tailStart(path, maxBytes);
  const records: unknown[] = [];
  scanJsonlFile(path, start, (r) => void records.push(r), { ...options, startsMidLine: midLine });
  return records;
}

/** Where the window starts, and whether that is inside a line (the byte before is not '\n'). */
function tailStart(path: string, maxBytes: number): { start: number; midLine: boolean } {
  const { fd, stats } = openRegularFile(path);
  try {
    const size = stats.size;
    const start = Math.max(0, size - Math.max(0, maxBytes));
    if (start === 0) return { start, midLine: false };
    const before = Buffer.alloc(1);
    readSync(fd, before, 0, 1, start - 1);
    return { start, midLine: before[0] !== 10 };
  } finally {
    closeSync(fd);
  }
}
