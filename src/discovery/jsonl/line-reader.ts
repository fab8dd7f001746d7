/**
 * Complete lines of a file from a byte offset, as bytes: the one line splitter under every JSONL
 * reader. Lines are split on the '\n' byte only (never `readline`, which also breaks on U+2028/U+2029
 * and hands over a half-written last line), nothing is decoded, and a line is handed over as a view
 * of one reused read buffer — a line inside the buffer costs no copy and no allocation, so a caller
 * that looks at a few bytes of a 500 KB tool output pays for those bytes only.
 */
import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from '../regular-file/index.ts';

export interface LineSink {
  /**
   * A complete line without its '\n' (nor the '\r' of a CRLF ending). The view is valid only during
   * the call: the buffer under it is reused for the next read.
   */
  line(bytes: Buffer, lineStart: number): void;
  /** A line longer than maxLineBytes, never buffered whole: its first headBytes bytes. */
  oversize(head: Buffer, lineStart: number): void;
}

export interface LineReadOptions {
  /** Lines longer than this (the '\r' of CRLF not counted) go to `oversize`. Default: 16 MiB. */
  maxLineBytes?: number;
  /** Bytes of an oversize line given to `oversize`. Default: 512. */
  headBytes?: number;
  /**
   * Read at most this many bytes (default: to end of file). Soft in one case: when the first line is
   * longer than the budget, reading goes on to its end so callers always make progress.
   */
  maxBytes?: number;
  /** Initial read size in bytes; the buffer grows to hold a long line. Default: 1 MiB. */
  chunkBytes?: number;
  /** `offset` may sit mid-line (a tail window): bytes up to the first '\n' are dropped, unreported. */
  startsMidLine?: boolean;
}

export interface LineReadResult {
  /** Byte offset just past the last complete line consumed; resume from here. */
  offset: number;
  /** Bytes read from the file by this call. */
  bytesRead: number;
}

const MiB = 1024 * 1024;

/**
 * Reads the complete lines of `path` from `offset`. A final line without '\n' is not consumed (it may
 * still be being written); a file now shorter than `offset` reads nothing and `offset` comes back
 * unchanged. Throws only when the file cannot be opened or read, or is not a regular file
 * (NotRegularFileError: a FIFO or a device is never read, so it cannot block).
 */
export function readLinesFrom(path: string, offset: number, sink: LineSink, options: LineReadOptions = {}): LineReadResult {
  const { fd, stats } = openRegularFile(path);
  const buffers = borrowBuffer();
  try {
    return readFd(fd, stats.size, offset, sink, options, buffers);
  } finally {
    buffers.release();
    closeSync(fd);
  }
}

interface BufferLease {
  /** A buffer of at least `n` bytes; `keep` (a grown one) is handed back with `release`. */
  get(n: number): Buffer;
  keep(b: Buffer): void;
  release(): void;
}

/** The largest read buffer kept between calls. */
const KEEP_BYTES = 16 * MiB;
let spare: Buffer | null = null;

/**
 * One read buffer shared by every call (a fresh megabyte per file costs its page faults each time).
 * Calls are synchronous; a sink that reads another file from inside a callback finds none spare and
 * gets its own.
 */
function borrowBuffer(): BufferLease {
  let held = spare;
  spare = null;
  return {
    get: (n) => {
      if (!held || held.length < n) held = Buffer.allocUnsafe(n);
      return held;
    },
    keep: (b) => void (held = b),
    release: () => {
      if (held && held.length <= KEEP_BYTES && (!spare || spare.length < held.length)) spare = held;
    },
  };
}

function readFd(fd: number, size: number, offset: number, sink: LineSink, options: LineReadOptions, buffers: BufferLease): LineReadResult {
  const maxLine = options.maxLineBytes ?? 16 * MiB;
  const headBytes = Math.max(1, options.headBytes ?? 512);
  const budgetEnd = options.maxBytes === undefined ? size : Math.min(size, offset + Math.max(0, options.maxBytes));
  const result: LineReadResult = { offset, bytesRead: 0 };
  if (offset >= size) return result;
  let buf = buffers.get(Math.max(1, Math.min(options.chunkBytes ?? MiB, size - offset)));
  /** File offset of buf[0]; buf[0, filled) holds bytes not yet handed over. */
  let base = offset;
  let filled = 0;
  let pos = offset;
  // skipping: inside a line that is not buffered (oversize, or the mid-line start of a tail window).
  let skipping = options.startsMidLine === true;
  let skipHead: Buffer | null = null;
  let skipStart = offset;
  let consumedAny = false;

  while (pos < size) {
    const extending = pos >= budgetEnd;
    if (extending && (consumedAny || (filled === 0 && !skipping))) break;
    if (filled === buf.length) {
      buf = grow(buf, filled, maxLine);
      buffers.keep(buf);
    }
    const want = Math.min(buf.length - filled, (extending ? size : budgetEnd) - pos);
    const n = readSync(fd, buf, filled, want, pos);
    if (n <= 0) break; // truncated under us: stop at what was consumed
    result.bytesRead += n;
    pos += n;
    const end = filled + n;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start === 0 ? filled : start);
      if (nl === -1 || nl >= end) break;
      if (skipping) {
        if (skipHead) sink.oversize(skipHead, skipStart);
        skipping = false;
        skipHead = null;
      } else {
        const stop = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
        if (stop - start > maxLine) sink.oversize(buf.subarray(start, start + headBytes), base + start);
        else sink.line(buf.subarray(start, stop), base + start);
      }
      start = nl + 1;
      result.offset = base + start;
      consumedAny = true;
      if (extending) break;
    }
    // Keep the unfinished line: move it to the front, or drop it when it is already too long to keep.
    const rest = end - start;
    if (skipping) {
      filled = 0;
    } else if (rest > maxLine + 1) {
      skipping = true;
      skipHead = Buffer.from(buf.subarray(start, start + headBytes));
      skipStart = base + start;
      filled = 0;
    } else {
      if (start > 0) buf.copyWithin(0, start, end);
      filled = rest;
    }
    base = pos - filled;
    if (extending && consumedAny) break;
  }
  return result;
}

/** A buffer twice as large (at most what a longest kept line needs), holding the first `filled` bytes. */
function grow(buf: Buffer, filled: number, maxLine: number): Buffer {
  const next = Buffer.allocUnsafe(Math.max(buf.length + 1, Math.min(buf.length * 2, maxLine + 2)));
  buf.copy(next, 0, 0, filled);
  return next;
}
