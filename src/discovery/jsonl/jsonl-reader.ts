/**
 * Incremental, tolerant JSONL reading by byte offset. Lines are split on the
 * '\n' byte only — never `readline`, which also breaks on U+2028/U+2029 and would hand us a
 * half-written last line. Content problems are counted, never thrown.
 */
import { isUtf8 } from 'node:buffer';
import { readLinesFrom } from './line-reader.ts';
import { utf8Text } from './byte-text.ts';

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
  /** Initial read size in bytes (the buffer grows to hold a long line). Default: 1 MiB. */
  chunkBytes?: number;
}

/** For the tail reader: `offset` may sit mid-line; bytes up to the first '\n' are dropped uncounted. */
interface JsonlScanOptions extends JsonlReadOptions {
  startsMidLine?: boolean;
}

export type OnRecord = (record: unknown, lineStart: number) => void;


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
  const headBytes = Math.max(1, options.headBytes ?? 512);
  const ignore = options.ignore;
  const counts = { linesParsed: 0, linesSkipped: 0, linesIgnored: 0 };
  const ignored = (head: Buffer): boolean => ignore !== undefined && ignore(head.toString('utf8'));
  const r = readLinesFrom(path, offset, {
    line(bytes, lineStart) {
      if (isBlank(bytes)) return;
      if (ignored(bytes.subarray(0, headBytes))) counts.linesIgnored++;
      else parseLine(bytes, lineStart, onRecord, counts);
    },
    oversize(head) {
      if (!isBlank(head) && ignored(head)) counts.linesIgnored++;
      else counts.linesSkipped++;
    },
  }, { maxLineBytes: options.maxLineBytes, headBytes, maxBytes: options.maxBytes, chunkBytes: options.chunkBytes, startsMidLine: options.startsMidLine });
  return { offset: r.offset, ...counts, bytesRead: r.bytesRead };
}

/**
 * One line as a JSON object or array, or undefined (counted skipped) when it is not valid UTF-8, not
 * a container, or not valid JSON. Blank lines are the caller's to drop.
 */
export function parseJsonLine(line: Buffer, counts: Pick<JsonlReadResult, 'linesParsed' | 'linesSkipped'>): unknown {
  // Invalid UTF-8 is detected and counted, never turned into U+FFFD; a leading BOM is dropped (as a
  // TextDecoder would).
  if (!isUtf8(line)) {
    counts.linesSkipped++;
    return undefined;
  }
  const text = utf8Text(line, line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf ? 3 : 0, line.length);
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') {
    counts.linesSkipped++;
    return undefined;
  }
  try {
    const record: unknown = JSON.parse(text);
    counts.linesParsed++;
    return record;
  } catch {
    counts.linesSkipped++;
    return undefined;
  }
}

function parseLine(line: Buffer, lineStart: number, onRecord: OnRecord, counts: Pick<JsonlReadResult, 'linesParsed' | 'linesSkipped'>): void {
  const record = parseJsonLine(line, counts);
  if (record !== undefined) onRecord(record, lineStart);
}

/** Only ASCII whitespace: a blank line is neither parsed nor counted as skipped. */
export function isBlank(b: Buffer): boolean {
  for (const c of b) if (c !== 32 && c !== 9 && c !== 13) return false;
  return true;
}
