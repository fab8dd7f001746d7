/**
 * A rollout's token lines, read without parsing the whole line. They are ~30 % of a rollout's lines and
 * most of the lines the fold parses (a `token_count` event and a `token_usage_record` for each model
 * request), and the fold takes two small objects of counts from each. Those objects are read where Codex
 * writes them, from the line's bytes as latin1 (a character per byte; the keys the fold reads are ASCII):
 *
 *   {"timestamp":…,"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{…},"last_token_usage":{…},…
 *   {"timestamp":…,"type":"token_usage_record","payload":{…,"usage":{…},"turn_token_usage":{…},"thread_token_usage":{…}}}
 *
 * Each object is found from the key before it to its first `}` (they hold only counts), and only that
 * is given to JSON.parse. Anything else (another layout, `"info":null`, an object that holds one) answers
 * undefined, and the line is parsed whole, so a layout this does not know costs time, never data. As
 * with the heads of ignored lines (rollout-lines.ts), the rest of the line is not checked.
 */

import { latin1Text } from '../../../discovery/jsonl/index.ts';

export interface TokenLine {
  /** The running total: `info.total_token_usage`, or `thread_token_usage`. */
  total: unknown;
  /** The request's own usage (`info.last_token_usage`, or `usage`) when asked for, else undefined. */
  last: unknown;
}

/** Lines longer than this are parsed whole (a token line is under 1 KB). */
const MAX_TOKEN_LINE = 4096;
const TOKEN_COUNT = ',"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":';
const LAST_TOKEN_USAGE = ',"last_token_usage":';
const USAGE_RECORD = ',"type":"token_usage_record","payload":{';
const USAGE = ',"usage":';
const TURN_USAGE = ',"turn_token_usage":';
const THREAD_USAGE = ',"thread_token_usage":';
const RECORD_END = '}}';

const CLOSE = '}';

/**
 * Where the flat object at `at` ends (after its first `}`), or -1. What JSON.parse is then given is the
 * whole object only if it holds no object and no `}` in a string; otherwise it is not JSON, and throws.
 */
function objectEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x7b) return -1;
  const close = text.indexOf(CLOSE, at);
  return close === -1 ? -1 : close + 1;
}

/** The object from `at` to `end` (objectEnd), or undefined when it is not JSON. */
function parseObject(text: string, at: number, end: number): unknown {
  try {
    return JSON.parse(text.slice(at, end)) as unknown;
  } catch {
    return undefined;
  }
}

/** The two objects of a token_count event whose type starts at `at`. */
function tokenCount(text: string, at: number, wantLast: boolean): TokenLine | undefined {
  const totalAt = at + TOKEN_COUNT.length;
  const totalEnd = objectEnd(text, totalAt);
  if (totalEnd === -1 || !text.startsWith(LAST_TOKEN_USAGE, totalEnd)) return undefined;
  const lastAt = totalEnd + LAST_TOKEN_USAGE.length;
  const lastEnd = objectEnd(text, lastAt);
  if (lastEnd === -1) return undefined;
  const total = parseObject(text, totalAt, totalEnd);
  const last = wantLast ? parseObject(text, lastAt, lastEnd) : undefined;
  return total === undefined || (wantLast && last === undefined) ? undefined : { total, last };
}

/** The usage and thread total of a token_usage_record whose type starts at `at`: its last three fields. */
function usageRecord(text: string, at: number, wantLast: boolean): TokenLine | undefined {
  // The ids before it are strings, which cannot hold this key's unescaped quotes.
  const usage = text.indexOf(USAGE, at + USAGE_RECORD.length);
  if (usage === -1) return undefined;
  const usageAt = usage + USAGE.length;
  const usageEnd = objectEnd(text, usageAt);
  if (usageEnd === -1 || !text.startsWith(TURN_USAGE, usageEnd)) return undefined;
  const turnEnd = objectEnd(text, usageEnd + TURN_USAGE.length);
  if (turnEnd === -1 || !text.startsWith(THREAD_USAGE, turnEnd)) return undefined;
  const threadAt = turnEnd + THREAD_USAGE.length;
  const threadEnd = objectEnd(text, threadAt);
  if (threadEnd === -1 || threadEnd + RECORD_END.length !== text.length || !text.endsWith(RECORD_END)) return undefined;
  const total = parseObject(text, threadAt, threadEnd);
  const last = wantLast ? parseObject(text, usageAt, usageEnd) : undefined;
  return total === undefined || (wantLast && last === undefined) ? undefined : { total, last };
}

/**
 * The counts of a token line whose record type (`,"type":"`) is at `at` of `head` (the line's first
 * bytes as latin1), or undefined when it is not one or not in the layout above.
 */
export function readTokenLine(head: string, at: number, line: Buffer, wantLast: boolean): TokenLine | undefined {
  const count = head.startsWith(TOKEN_COUNT, at);
  if ((!count && !head.startsWith(USAGE_RECORD, at)) || line.length > MAX_TOKEN_LINE) return undefined;
  const text = line.length === head.length ? head : latin1Text(line, 0, line.length);
  return count ? tokenCount(text, at, wantLast) : usageRecord(text, at, wantLast);
}
