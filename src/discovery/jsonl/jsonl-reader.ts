/**
 * Incremental, tolerant JSONL reading by byte offset. Lines are split on the
 * '\n' byte only — never `readline`, which also breaks on U+2028/U+2029 and would hand us a
 * half-written last line. Content problems are counted, never thrown.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularFile } from '../regular-file/index.ts';

export interface JsonlReadResult {
  /** Byte offset just past the last complete line consumed; resume from here. */
  offset: number;
  linesParsed: number;
  /** Malformed JSON, invalid UTF-8, binary, not an object/array, or longer than maxLineBytes. */
  linesSkipped: number;
  /** Lines the `ignore` filter took without parsing. */
  linesIgnored: number;
  /** Bytes actually read from the file by this call. */
  bytesRead: number;
}

export interface JsonlReadOptions {
  /**
   * Called with the first bytes of each non-blank line (up to headBytes, decoded leniently) BEFORE
   * parsing; return true to skip the line without JSON.parse (huge records Muster never shows).
   */
  ignore?: (head: string) => boolean;
  /** Bytes of a line given to `ignore`. Default: 512. */
  headBytes?: number;
  /** Lines longer than this are never buffered nor parsed (skipped unless `ignore` took them). Default: 16 MiB. */
  maxLineBytes?: number;
  /**
   * Read at most this many bytes this call (default: to end of file). Soft in one case: when the
   * first line at `offset` is longer than the budget, reading goes on to its end so callers always
   * make progress (an over-long line is scanned without being buffered).
   */
  maxBytes?: number;
  /** Read size in bytes. Default: 1 MiB. */
  chunkBytes?: number;
}

/** For the tail reader: `offset` may sit mid-line; bytes up to the first '\n' are dropped uncounted. */
interface JsonlScanOptions extends JsonlReadOptions {
  startsMidLine?: boolean;
}

export type OnRecord = (record: unknown, lineStart: number) => void;

const MiB = 1024 * 1024;
// fatal: invalid UTF-8 must be detected and counted, not silently turned into U+FFFD.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

type LineMode = 'collect' | 'ignored' | 'oversize' | 'discard';

/**
 * Reads complete lines of `path` from byte `offset`, calling `onRecord` for each JSON object or
 * array. A final line without '\n' is not consumed (it may still be being written). If the file
 * is now shorter than `offset` (rewritten), nothing is read and `offset` comes back unchanged:
 * callers compare with the file size and restart from 0.
 * Throws only when the file cannot be opened or read, or is not a regular file (NotRegularFileError:
 * a FIFO or device is never read, so it cannot block); the caller counts that.
 */
export function readJsonlFrom(path: string, offset: number, onRecord: OnRecord, options: JsonlReadOptions = {}): JsonlReadResult {
  return scanJsonlFile(path, offset, onRecord, options);
}

/** readJsonlFrom with the tail reader's mid-line start; not exported from the folder. */
export function scanJsonlFile(path: string, offset: number, onRecord: OnRecord, options: JsonlScanOptions): JsonlReadResult {
  const { fd } = openRegularFile(path);
  try {
    return scanFd(fd, offset, onRecord, options);
  } finally {
    closeSync(fd);
  }
}

function scanFd(fd: number, offset: number, onRecord: OnRecord, options: JsonlScanOptions): JsonlReadResult {
  const headBytes = Math.max(1, options.headBytes ?? 512);
  const maxLineBytes = options.maxLineBytes ?? 16 * MiB;
  const chunkBytes = Math.max(1, options.chunkBytes ?? MiB);
  const size = fstatSync(fd).size;
  const budgetEnd = options.maxBytes === undefined ? size : Math.min(size, offset + Math.max(0, options.maxBytes));
  const result: JsonlReadResult = { offset, linesParsed: 0, linesSkipped: 0, linesIgnored: 0, bytesRead: 0 };

  // The line being assembled. `parts` are views into per-read buffers (never reused), so a line
  // inside one chunk costs no copy; only a line spanning chunks is concatenated once, at its end.
  let lineStart = offset;
  let lineBytes = 0;
  let parts: Buffer[] = [];
  let mode: LineMode = options.startsMidLine ? 'discard' : 'collect';
  let headDecided = !options.ignore;

  const decideHead = (): void => {
    headDecided = true;
    const head = headOf(parts, headBytes);
    if (isBlank(head)) return;
    if (options.ignore?.(trimCr(head).toString('utf8'))) {
      mode = 'ignored';
      parts = [];
    }
  };

  const feed = (seg: Buffer): void => {
    if (seg.length === 0) return;
    lineBytes += seg.length;
    if (mode !== 'collect') return;
    parts.push(seg);
    if (!headDecided && lineBytes >= headBytes) decideHead();
    // "\r" of a CRLF ending is not content: allow it beyond the limit.
    if (mode === 'collect' && lineBytes > maxLineBytes + 1) {
      mode = 'oversize';
      parts = [];
    }
  };

  const finishLine = (next: number): void => {
    if (mode === 'collect' && !headDecided) decideHead();
    if (mode === 'collect') {
      const line = trimCr(concat(parts));
      if (line.length > maxLineBytes) result.linesSkipped++;
      else if (!isBlank(line)) parseLine(line, lineStart, onRecord, result);
    } else if (mode === 'ignored') result.linesIgnored++;
    else if (mode === 'oversize') result.linesSkipped++;
    result.offset = next;
    lineStart = next;
    lineBytes = 0;
    parts = [];
    mode = 'collect';
    headDecided = !options.ignore;
  };

  let pos = offset;
  let consumedAny = false;
  while (pos < size) {
    // Past the budget, only go on to finish a first line that is longer than the whole budget.
    const extending = pos >= budgetEnd;
    if (extending && (consumedAny || lineBytes === 0)) break;
    const want = Math.min(chunkBytes, (extending ? size : budgetEnd) - pos);
    const buf = Buffer.allocUnsafe(want);
    const n = readSync(fd, buf, 0, want, pos);
    if (n <= 0) break; // truncated under us: stop at what was consumed
    result.bytesRead += n;
    let i = 0;
    while (i < n) {
      const nl = buf.indexOf(10, i);
      if (nl === -1 || nl >= n) {
        feed(buf.subarray(i, n));
        break;
      }
      feed(buf.subarray(i, nl));
      finishLine(pos + nl + 1);
      consumedAny = true;
      i = nl + 1;
      if (extending) break;
    }
    pos += n;
    if (extending && consumedAny) break;
  }
  return result;
}

function parseLine(line: Buffer, lineStart: number, onRecord: OnRecord, result: JsonlReadResult): void {
  let text: string;
  try {
    text = strictUtf8.decode(line);
  } catch {
    result.linesSkipped++;
    return;
  }
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') {
    result.linesSkipped++;
    return;
  }
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    result.linesSkipped++;
    return;
  }
  result.linesParsed++;
  onRecord(record, lineStart);
}

function concat(parts: Buffer[]): Buffer {
  if (parts.length === 1 && parts[0]) return parts[0];
  return Buffer.concat(parts);
}

/** The first `n` bytes of a line without concatenating a whole (possibly huge) part. */
function headOf(parts: Buffer[], n: number): Buffer {
  const out: Buffer[] = [];
  let left = n;
  for (const p of parts) {
    if (left <= 0) break;
    const piece = p.length > left ? p.subarray(0, left) : p;
    out.push(piece);
    left -= piece.length;
  }
  return concat(out);
}

function trimCr(b: Buffer): Buffer {
  return b.length > 0 && b[b.length - 1] === 13 ? b.subarray(0, b.length - 1) : b;
}

/** Only ASCII whitespace: a blank line is neither parsed nor counted as skipped. */
function isBlank(b: Buffer): boolean {
  for (const c of b) if (c !== 32 && c !== 9 && c !== 13) return false;
  return true;
}
