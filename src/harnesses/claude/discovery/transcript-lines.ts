/**
 * One transcript line, as bytes, into the summary — what the index calls for every line it reads.
 *
 * Most of a transcript's bytes are records Muster never shows (request bodies, prompt snapshots,
 * attachments) and tool outputs. The first are recognised from their first bytes and never parsed.
 * A small line is parsed whole, as before. A large one (a tool result, a long answer) is read as its
 * skeleton (jsonl/skeleton.ts: long strings elided, never decoded) whenever what `applyRecord` reads
 * from it is outside the elided strings: the conversation fields, the timestamp, the model, the
 * message id and its usage. It is parsed whole when it may hold what the summary needs from long text:
 * the first human prompt (until one is found), a PR link (the bytes of a tool result's elided text
 * name github.com), or a field that came out elided. So tokens, cost and every other field come out as a whole parse gives them.
 */
import { elidedRanges, elidedSpan, isBlank, isElided, parseJsonLine, parseSkeleton, readLinesFrom } from '../../../discovery/jsonl/index.ts';
import type { ElidedRanges } from '../../../discovery/jsonl/index.ts';
import type { TranscriptMessage } from '../../../core/transcript-message.ts';
import { pushLineMessages } from './messages.ts';
import type { ConversationOptions } from './messages.ts';
import { asObject } from './record-fields.ts';
import type { Json } from './record-fields.ts';
import { applyRecord } from './transcript.ts';
import type { TranscriptSummary } from './transcript.ts';
import type { UsageSink } from './usage-records.ts';
import { foldTranscriptFileFast } from './transcript-fast.ts';
import type { TranscriptLineFolds } from './transcript-fast.ts';

/** What folding lines counts (the reader's own counters, summed by the scan). */
export interface LineCounts {
  linesParsed: number;
  linesSkipped: number;
  /** Recognised from their first bytes and never parsed. */
  linesIgnored: number;
}

/** Lines up to this many bytes are parsed whole: below it a skeleton saves nothing. */
export const WHOLE_LINE_BYTES = 1024;
/** Strings longer than this (bytes, quotes included) are elided from a large line's skeleton. */
export const ELIDE_BYTES = 256;

const TYPE_HEAD = Buffer.from('{"type":"');
/** Metadata records Muster never shows, by the value of a leading `type` (prefixes end in '"' when exact). */
const IGNORED_TYPES = ['api-request', 'file-history-', 'tools-used"', 'mode"', 'permission-mode"', 'atis-latch"'].map((t) => Buffer.from(t));
const PARENT_HEAD = Buffer.from('{"parentUuid":');
const NULL = Buffer.from('null');
const SIDECHAIN = Buffer.from(',"isSidechain":');
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const ATTACHMENT = Buffer.from(',"attachment":');
/** The reader's head window: a parentUuid longer than this is not recognised, as before. */
export const HEAD_BYTES = 512;
/**
 * What a PR link's bytes must hold: `hub.com`, in every `github.com`. Buffer#indexOf finds it faster than
 * the whole name (measured over tool outputs, and over 83 MB of source text: about a third less), and a
 * text holding it without a link only costs a whole parse, whose regex decides.
 */
const GITHUB = Buffer.from('hub.com');

// A byte loop: Buffer#compare's argument checks cost more than these few bytes.
function startsAt(line: Buffer, at: number, what: Buffer): boolean {
  if (line.length < at + what.length) return false;
  for (let i = 0; i < what.length; i++) if (line[at + i] !== what[i]) return false;
  return true;
}

/**
 * True for records recognised from their first bytes: metadata by its leading type, attachments by
 * the conversation head that precedes them (`{"parentUuid":…,"isSidechain":…,"attachment":`).
 */
export function isIgnoredLine(line: Buffer): boolean {
  if (startsAt(line, 0, TYPE_HEAD)) return IGNORED_TYPES.some((t) => startsAt(line, TYPE_HEAD.length, t));
  if (!startsAt(line, 0, PARENT_HEAD)) return false;
  let at = PARENT_HEAD.length;
  if (startsAt(line, at, NULL)) at += NULL.length;
  else if (line[at] === 0x22) {
    const close = line.indexOf(0x22, at + 1);
    if (close === -1 || close >= HEAD_BYTES) return false;
    at = close + 1;
  } else return false;
  if (!startsAt(line, at, SIDECHAIN)) return false;
  at += SIDECHAIN.length;
  if (startsAt(line, at, TRUE)) at += TRUE.length;
  else if (startsAt(line, at, FALSE)) at += FALSE.length;
  else return false;
  return at + ATTACHMENT.length <= HEAD_BYTES && startsAt(line, at, ATTACHMENT);
}

const elided = isElided;

/** The skeletons' ranges of a fold without messages (lines are folded one at a time). */
const foldRanges = elidedRanges();

/**
 * True when the bytes of an elided string `x` hold `what` (its JSON text, as the line spells it), or
 * when that cannot be told (no range for it: a string of the line may read like a sentinel).
 */
function elidedHolds(x: string, line: Buffer, ranges: ElidedRanges, what: Buffer): boolean {
  const span = elidedSpan(x, ranges);
  return span === undefined || line.subarray(span[0], span[1]).indexOf(what) !== -1;
}

/**
 * True when a tool result's text that the skeleton elided may name github.com, where
 * prLinksInToolResults looks for PR links (the whole line must then be parsed). Its kept strings are in
 * the skeleton itself. Only those bytes are searched: not the copy of the output in toolUseResult.
 */
function toolResultsMayLink(record: Json, line: Buffer, ranges: ElidedRanges): boolean {
  const content = asObject(record.message)?.content;
  if (!Array.isArray(content)) return false;
  for (const block of content) {
    const b = asObject(block);
    if (b === null || b.type !== 'tool_result') continue;
    const c = b.content;
    if (typeof c === 'string') {
      if (elided(c) && elidedHolds(c, line, ranges, GITHUB)) return true;
    } else if (Array.isArray(c)) {
      for (const part of c) {
        const text = asObject(part)?.text;
        if (typeof text === 'string' && elided(text) && elidedHolds(text, line, ranges, GITHUB)) return true;
      }
    }
  }
  return false;
}

/** True when the skeleton holds everything applyRecord reads from this record. */
function skeletonSuffices(s: TranscriptSummary, record: Json, line: Buffer, ranges: ElidedRanges): boolean {
  if (elided(record.timestamp) || elided(record.sessionId) || elided(record.cwd) || elided(record.gitBranch)) return false;
  switch (record.type) {
    case 'system':
      return true;
    case 'user':
      return s.firstPrompt !== null && !toolResultsMayLink(record, line, ranges);
    case 'assistant': {
      const m = asObject(record.message);
      return !elided(record.requestId) && !elided(record.requestSessionId) && !(m && (elided(m.id) || elided(m.model)));
    }
    default:
      return false; // titles, prompts, cost records: rare and read whole
  }
}

/** Where a fold also puts each line's conversation messages (search), read from the same bytes. */
export interface MessageCollector {
  items: TranscriptMessage[];
  options: ConversationOptions;
  /** Scratch for the skeletons' elided strings (made on first use). */
  ranges?: ElidedRanges;
}

/**
 * Folds one line (without its '\n') into `s`, and its messages into `messages` when given. Never throws;
 * malformed lines are counted skipped.
 */
export function foldTranscriptLine(s: TranscriptSummary, line: Buffer, counts: LineCounts, sink?: UsageSink, messages?: MessageCollector): void {
  if (isBlank(line)) return;
  if (isIgnoredLine(line)) {
    counts.linesIgnored++;
    s.records++; // a Claude Code record, recognised by its head
    return;
  }
  if (line.length > WHOLE_LINE_BYTES) {
    const ranges = messages ? (messages.ranges ??= elidedRanges()) : foldRanges;
    const skeleton = parseSkeleton(line, ELIDE_BYTES, ranges);
    if (skeleton === undefined) {
      counts.linesSkipped++;
      return;
    }
    const record = asObject(skeleton);
    if (record === null || typeof record.type !== 'string' || skeletonSuffices(s, record, line, ranges)) {
      counts.linesParsed++;
      applyRecord(s, skeleton, sink);
      if (messages) pushLineMessages(messages.items, skeleton, line, true, messages.options, ranges);
      return;
    }
    const whole = parseJsonLine(line, counts);
    if (whole !== undefined) applyRecord(s, whole, sink);
    // Messages by the skeleton's rule (a line valid only as a skeleton keeps the skeleton's), as reading counts them.
    if (messages) pushLineMessages(messages.items, whole ?? skeleton, line, whole === undefined, messages.options, ranges);
    return;
  }
  const record = parseJsonLine(line, counts);
  if (record === undefined) return;
  applyRecord(s, record, sink);
  if (messages) pushLineMessages(messages.items, record, line, false, messages.options);
}

/**
 * Folds the complete lines of `path` from byte `from` into `s` (each API message's usage record to
 * `sink`, each line's conversation messages to `messages`); returns the offset reached and the counts.
 * Throws only when the file cannot be read or is not a regular file.
 */
export function foldTranscriptFile(path: string, from: number, s: TranscriptSummary, maxLineBytes: number, sink?: UsageSink, messages?: MessageCollector): LineCounts & { offset: number } {
  const counts: LineCounts = { linesParsed: 0, linesSkipped: 0, linesIgnored: 0 };
  // A summary alone (the cold index's first pass): the line loop in WebAssembly, where it is available.
  const fast = sink || messages || maxLineBytes < HEAD_BYTES ? undefined : foldTranscriptFileFast(path, from, s, maxLineBytes, HEAD_BYTES, counts, LINE_FOLDS);
  if (fast !== undefined) return { offset: fast, ...counts };
  const r = readLinesFrom(path, from, {
    line: (bytes) => foldTranscriptLine(s, bytes, counts, sink, messages),
    oversize: (head) => foldOversizeHead(s, head, counts),
  }, { maxLineBytes, headBytes: HEAD_BYTES });
  return { offset: r.offset, ...counts };
}

/** A line longer than the limit, by its head: a record Muster never shows is counted as one, anything else skipped. */
function foldOversizeHead(s: TranscriptSummary, head: Buffer, counts: LineCounts): void {
  if (isIgnoredLine(head)) {
    counts.linesIgnored++;
    s.records++;
  } else counts.linesSkipped++;
}

const LINE_FOLDS: TranscriptLineFolds = { line: (s, line, counts) => foldTranscriptLine(s, line, counts), oversize: foldOversizeHead };
