/**
 * One rollout line, as bytes, into the summary — what the index calls for every line it reads.
 *
 * The records Muster never shows (world snapshots, full messages, reasoning, tool outputs, command
 * items) are most of a rollout's bytes; they are recognised from the first HEAD_BYTES bytes, as
 * `rolloutIgnore` recognises them from the decoded head, with no UTF-8 decoding (those bytes are read
 * as latin1, a character per byte), and what the summary needs from them (the time, the call an output
 * closes) is taken from those bytes. Token lines give their counts only (token-lines.ts). The rest
 * is parsed whole, except a large `session_meta` (its base instructions are ~20 KB), read as its
 * skeleton (jsonl/skeleton.ts) when every field the summary takes from it is outside the elided text.
 */
import { isBlank, isElided, latin1Text, parseJsonLine, parseSkeleton, readLinesFrom, utf8Text } from '../../../discovery/jsonl/index.ts';
import type { TranscriptMessage } from '../../../core/transcript-message.ts';
import { ITEM_COMPLETED, ITEM_TYPE, RECORD_TYPE, RESPONSE_ITEM, WORLD_STATE, applyRolloutRecord, applyTokenLine } from './rollout.ts';
import { readTokenLine } from './token-lines.ts';
import { rolloutMessagesOf } from './rollout-messages.ts';
import type { RolloutSummary } from './rollout.ts';
import type { UsageSink } from './usage-records.ts';
import { foldRolloutFileFast } from './rollout-fast.ts';
import type { RolloutLineFolds } from './rollout-fast.ts';

export interface LineCounts {
  linesParsed: number;
  linesSkipped: number;
  /** Recognised from their first bytes and never parsed. */
  linesIgnored: number;
}

/** Enough head for the type, the item type and a call_id (ids are ~40 bytes each). */
export const HEAD_BYTES = 640;
const WHOLE_LINE_BYTES = 4096;
const ELIDE_BYTES = 256;

// The head is read as a latin1 string (one character per byte, so offsets are byte offsets): a string
// search costs less than a Buffer search on a few hundred bytes. Values are decoded from the bytes.
// The record heads (RECORD_TYPE and the heads that start there) are rollout.ts's, which rolloutIgnore reads too.
/** What follows RESPONSE_ITEM in a message's and a reasoning's head. */
const MESSAGE = 'message"';
const REASONING = 'reasoning"';
const CALL_OUTPUT = '_call_output';
const CALL_ID = '"call_id":"';
/** What follows ITEM_TYPE in `"item":{"type":"UserMessage"` and `"item":{"type":"AgentMessage"`. */
const USER_MESSAGE = 'UserMessage"';
const AGENT_MESSAGE = 'AgentMessage"';
const TIMESTAMP_HEAD = '{"timestamp":"';
const QUOTE = 0x22;

const isLower = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isAlpha = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);

/** The payload type that starts at `start` (the end of RESPONSE_ITEM): what it says of the line. */
const PAYLOAD_MESSAGE = 1; // message or reasoning
const PAYLOAD_CALL_OUTPUT = 2; // /^[a-z_]+_call_output$/

function payloadKind(head: string, start: number): number {
  if (head.startsWith(MESSAGE, start) || head.startsWith(REASONING, start)) return PAYLOAD_MESSAGE;
  let end = start;
  while (isLower(head.charCodeAt(end))) end++;
  const callOutput = head.charCodeAt(end) === QUOTE && end - start > CALL_OUTPUT.length && head.startsWith(CALL_OUTPUT, end - CALL_OUTPUT.length);
  return callOutput ? PAYLOAD_CALL_OUTPUT : 0;
}

/** The first item type from `from` (`"item":{"type":"…"`): what it says of the line. */
const ITEM_USER = 1; // UserMessage
const ITEM_AGENT = 2; // AgentMessage
const ITEM_ANY = 4; // /^[A-Za-z]+$/

function itemKind(head: string, from: number): number {
  const at = head.indexOf(ITEM_TYPE, from);
  if (at === -1) return 0;
  const start = at + ITEM_TYPE.length;
  let end = start;
  while (isAlpha(head.charCodeAt(end))) end++;
  if (end === start || head.charCodeAt(end) !== QUOTE) return 0;
  if (head.startsWith(USER_MESSAGE, start)) return ITEM_ANY | ITEM_USER;
  return head.startsWith(AGENT_MESSAGE, start) ? ITEM_ANY | ITEM_AGENT : ITEM_ANY;
}

/** The first /"call_id":"([^"\\]+)"/ capture (decoded from `line`'s bytes), or null. */
function callIdOf(head: string, line: Buffer): string | null {
  for (let at = head.indexOf(CALL_ID); at !== -1; at = head.indexOf(CALL_ID, at + 1)) {
    const start = at + CALL_ID.length;
    let end = start;
    while (end < head.length && head.charCodeAt(end) !== QUOTE && head.charCodeAt(end) !== 0x5c) end++;
    if (end > start && head.charCodeAt(end) === QUOTE) return utf8Text(line, start, end);
  }
  return null;
}

/** /^\{"timestamp":"([^"]+)"/ (decoded from `line`'s bytes) */
function timestampOf(head: string, line: Buffer): string | undefined {
  if (!head.startsWith(TIMESTAMP_HEAD)) return undefined;
  const start = TIMESTAMP_HEAD.length;
  const end = head.indexOf('"', start);
  return end > start ? utf8Text(line, start, end) : undefined;
}

/**
 * `rolloutIgnore` on bytes: true for a line Muster never parses, after taking what the summary needs
 * from its head (its time; the pending call an output closes).
 */
export function ignoreRolloutLine(s: RolloutSummary, line: Buffer): boolean {
  return headVerdict(s, line) !== PARSE;
}

/** What a line's head says: parse it; ignore it; ignore it for the summary, but it is a prompt or reply (search's). */
const PARSE = 0;
const IGNORE = 1;
const IGNORE_BUT_MESSAGE = 2;

/** A line's first HEAD_BYTES bytes as latin1. */
const headOf = (line: Buffer): string => latin1Text(line, 0, Math.min(line.length, HEAD_BYTES));

/** `head` is headOf(line); `at`, where its record type is (as rolloutIgnore reads a head: the first `,"type":"`). */
function headVerdict(s: RolloutSummary, line: Buffer, head = headOf(line), at = head.indexOf(RECORD_TYPE)): number {
  if (at === -1) return PARSE;
  let skip = false;
  let closes: string | null = null;
  let message = false;
  if (head.startsWith(WORLD_STATE, at)) skip = true;
  else if (head.startsWith(RESPONSE_ITEM, at)) {
    const kind = payloadKind(head, at + RESPONSE_ITEM.length);
    if (kind === PAYLOAD_MESSAGE) skip = true;
    else if (kind === PAYLOAD_CALL_OUTPUT) {
      closes = callIdOf(head, line);
      skip = closes !== null;
    }
  } else if (head.startsWith(ITEM_COMPLETED, at)) {
    const kind = itemKind(head, at);
    const user = (kind & ITEM_USER) !== 0;
    const wanted = s.firstPrompt === null && user;
    skip = !wanted && kind !== 0;
    // As rolloutIgnore's `messages` filter keeps them: every prompt and reply.
    message = skip && (user || (kind & ITEM_AGENT) !== 0);
  }
  if (!skip) return PARSE;
  const ts = timestampOf(head, line);
  if (ts !== undefined && (s.lastActivityAt === null || ts > s.lastActivityAt)) s.lastActivityAt = ts;
  if (closes !== null) delete s.pending[closes];
  return message ? IGNORE_BUT_MESSAGE : IGNORE;
}

const elided = isElided;

/** A large session_meta whose every field the summary reads came through the skeleton. */
function metaSuffices(record: unknown): boolean {
  const r = record as { type?: unknown; timestamp?: unknown; payload?: Record<string, unknown> | null } | null;
  const p = r?.payload;
  if (r?.type !== 'session_meta' || typeof p !== 'object' || p === null || elided(r.timestamp)) return false;
  const git = p.git as { branch?: unknown } | null | undefined;
  return ![p.id, p.timestamp, p.cwd, p.originator, p.source, p.thread_source, p.cli_version].some(elided) && !(git && typeof git === 'object' && elided(git.branch));
}

/** A token line read without a parse (token-lines.ts) into `s`; false when the line is to be parsed whole. */
function foldTokenLine(s: RolloutSummary, line: Buffer, head: string, at: number, sink: UsageSink | undefined): boolean {
  const tokens = readTokenLine(head, at, line, sink !== undefined);
  if (tokens === undefined) return false;
  // An escaped quote in the time would be decoded by a parse.
  const ts = timestampOf(head, line);
  if (ts === undefined || ts.includes('\\')) return false;
  applyTokenLine(s, ts, tokens.total, tokens.last, sink);
  return true;
}

/**
 * Folds one line (without its '\n') into `s`, and its conversation messages into `messages` when given
 * (as search's filter reads them: a prompt or reply the summary does not parse is parsed for them).
 * Never throws; malformed lines are counted skipped.
 */
export function foldRolloutLine(s: RolloutSummary, line: Buffer, counts: LineCounts, sink?: UsageSink, messages?: TranscriptMessage[]): void {
  if (isBlank(line)) return;
  const head = headOf(line);
  const at = head.indexOf(RECORD_TYPE);
  const verdict = headVerdict(s, line, head, at);
  if (verdict !== PARSE) {
    counts.linesIgnored++;
    s.records++; // only a Codex record's head is taken
    if (messages && verdict === IGNORE_BUT_MESSAGE) {
      const record = parseJsonLine(line, { linesParsed: 0, linesSkipped: 0 });
      if (record !== undefined) for (const m of rolloutMessagesOf(record)) messages.push(m);
    }
    return;
  }
  if (at !== -1 && foldTokenLine(s, line, head, at, sink)) {
    counts.linesParsed++;
    return; // no message
  }
  if (line.length > WHOLE_LINE_BYTES) {
    const skeleton = parseSkeleton(line, ELIDE_BYTES);
    if (skeleton === undefined) {
      counts.linesSkipped++;
      return;
    }
    if (metaSuffices(skeleton)) {
      counts.linesParsed++;
      applyRolloutRecord(s, skeleton, sink);
      return; // a session_meta: no message
    }
  }
  const record = parseJsonLine(line, counts);
  if (record === undefined) return;
  applyRolloutRecord(s, record, sink);
  if (messages) for (const m of rolloutMessagesOf(record)) messages.push(m);
}

/**
 * Folds the complete lines of `path` from byte `from` (each request's usage record to `sink`, each line's
 * messages to `messages`); throws only when the file cannot be read.
 */
export function foldRolloutFile(path: string, from: number, s: RolloutSummary, maxLineBytes: number, sink?: UsageSink, messages?: TranscriptMessage[]): LineCounts & { offset: number } {
  const counts: LineCounts = { linesParsed: 0, linesSkipped: 0, linesIgnored: 0 };
  // A summary alone (the cold index's first pass): the line loop in WebAssembly, where it is available.
  const fast = sink || messages || maxLineBytes < HEAD_BYTES ? undefined : foldRolloutFileFast(path, from, s, maxLineBytes, HEAD_BYTES, counts, LINE_FOLDS);
  if (fast !== undefined) return { offset: fast, ...counts };
  const r = readLinesFrom(path, from, {
    line: (bytes) => foldRolloutLine(s, bytes, counts, sink, messages),
    oversize: (head) => foldOversizeHead(s, head, counts),
  }, { maxLineBytes, headBytes: HEAD_BYTES });
  return { offset: r.offset, ...counts };
}

/** A line longer than the limit, by its head: a record Muster never shows is counted as one, anything else skipped. */
function foldOversizeHead(s: RolloutSummary, head: Buffer, counts: LineCounts): void {
  if (!isBlank(head) && ignoreRolloutLine(s, head)) {
    counts.linesIgnored++;
    s.records++;
  } else counts.linesSkipped++;
}

const LINE_FOLDS: RolloutLineFolds = { line: (s, line, counts) => foldRolloutLine(s, line, counts), oversize: foldOversizeHead };
