/**
 * Incremental reading of one rollout through the TranscriptIndex port: only bytes past the stored
 * offset are read; a file that shrank or whose mtime went back is re-read from byte 0.
 */
import { basename } from 'node:path';
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import { isNotRegularFile, statRegularFile } from '../../../discovery/regular-file/index.ts';
import type { TranscriptIndex } from '../../../discovery/contract.ts';
import { applyRolloutRecord, emptyRolloutSummary, isRolloutSummary, rolloutIgnore } from './rollout.ts';
import type { RolloutSummary } from './rollout.ts';
import { threadIdFromRolloutName } from './rollout.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';

export interface ReadCounters {
  filesScanned: number;
  filesSkipped: number;
  linesParsed: number;
  linesSkipped: number;
  /** Of `filesSkipped`: FIFOs, sockets, devices and directories where a file should be, never read. */
  notRegular: number;
  errors: string[];
}

/** Lines longer than this are never parsed: a session_meta is ~20 KB, real records far below 4 MiB. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Enough head for the type, the item type and a call_id (ids are ~40 bytes each). */
const HEAD_BYTES = 640;
const MAX_ERRORS = 50;

export function pushError(c: Pick<ReadCounters, 'errors'>, msg: string): void {
  if (c.errors.length < MAX_ERRORS) c.errors.push(msg);
}

/** Counts a file that could not be read; a non-regular one also in `notRegular`. */
export function countSkip(c: ReadCounters, what: string, e: unknown): void {
  c.filesSkipped++;
  if (isNotRegularFile(e)) {
    c.notRegular++;
    pushError(c, e.message);
  } else pushError(c, `${what}: ${(e as Error).message}`);
}

/**
 * Returns the up-to-date summary of `path`, or null when it cannot be read (counted in `counters`).
 * Never throws.
 */
export function readRollout(path: string, index: TranscriptIndex, counters: ReadCounters): RolloutSummary | null {
  let size: number;
  let mtimeMs: number;
  try {
    const st = statRegularFile(path);
    size = st.size;
    mtimeMs = st.mtimeMs;
  } catch (e) {
    countSkip(counters, `stat ${path}`, e);
    return null;
  }
  const prev = index.get(path);
  const prevOk = prev !== undefined && prev.harness === 'codex' && isRolloutSummary(prev.summary);
  if (prevOk && prev.size === size && prev.mtimeMs === mtimeMs) return prev.summary as RolloutSummary;
  const resume = prevOk && size >= prev.offset && mtimeMs >= prev.mtimeMs;
  // A copy, so a failed read never leaves a half-updated summary in the index.
  const summary: RolloutSummary = resume ? structuredClone(prev.summary as RolloutSummary) : emptyRolloutSummary();
  const from = resume ? prev.offset : 0;
  counters.filesScanned++;
  const usage: UsageRecord[] = [];
  const threadId = threadIdFromRolloutName(basename(path));
  const sink = threadId ? { sessionId: threadId, emit: (u: UsageRecord) => void usage.push(u) } : undefined;
  try {
    const r = readJsonlFrom(path, from, (rec) => { applyRolloutRecord(summary, rec, sink); }, {
      ignore: rolloutIgnore(summary), headBytes: HEAD_BYTES, maxLineBytes: MAX_LINE_BYTES,
    });
    counters.linesParsed += r.linesParsed + r.linesIgnored;
    counters.linesSkipped += r.linesSkipped;
    // The filter takes only lines whose head is a Codex record's: records too.
    summary.records += r.linesIgnored;
    index.put({ path, harness: 'codex', size, mtimeMs, offset: r.offset, summary, usage });
    return summary;
  } catch (e) {
    countSkip(counters, `read ${path}`, e);
    return null;
  }
}
