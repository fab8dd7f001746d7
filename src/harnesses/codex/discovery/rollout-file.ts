/**
 * Incremental reading of one rollout through the TranscriptIndex port: only bytes past the stored
 * offset are read; a file that shrank or whose mtime went back is re-read from byte 0.
 */
import { basename } from 'node:path';
import { isNotRegularFile, statRegularFile } from '../../../discovery/regular-file/index.ts';
import type { IndexedMessages, TranscriptIndex } from '../../../discovery/contract.ts';
import { failedResult } from '../../../discovery/index-pool/index.ts';
import type { FileResult, FileTask, ListedFile } from '../../../discovery/index-pool/index.ts';
import { emptyRolloutSummary, isRolloutSummary, rolloutIgnore, threadIdFromRolloutName } from './rollout.ts';
import type { RolloutSummary } from './rollout.ts';
import { foldRolloutFile, HEAD_BYTES } from './rollout-lines.ts';
import type { RolloutFile } from './rollout-scan.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import type { MessagePage, TranscriptMessage } from '../../../core/transcript-message.ts';
import { pageConversation } from '../../../discovery/jsonl/index.ts';
import { rolloutMessagesOf } from './rollout-messages.ts';
import type { UsageSink } from './usage-records.ts';

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
/**
 * How reading pages a rollout's messages: the filter the fold's messages follow (rollout-lines.ts keeps
 * every prompt and reply it keeps), so positions agree (its skips depend on no summary state that
 * changes which messages a line gives). A fresh filter per read: it
 * notes timestamps and closed calls in the summary it is given, which no read should share.
 */
const rolloutRead = () => ({ ignore: rolloutIgnore(emptyRolloutSummary(), { messages: true }), headBytes: HEAD_BYTES, maxLineBytes: MAX_LINE_BYTES });
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
  const sink = usageSinkOf(path, usage);
  const items: TranscriptMessage[] = [];
  try {
    const r = foldRolloutFile(path, from, summary, MAX_LINE_BYTES, sink, items);
    counters.linesParsed += r.linesParsed + r.linesIgnored;
    counters.linesSkipped += r.linesSkipped;
    const messages = messagesOf(path, from, items);
    index.put({ path, harness: 'codex', size, mtimeMs, offset: r.offset, summary, usage, ...(messages ? { messages } : {}) });
    return summary;
  } catch (e) {
    countSkip(counters, `read ${path}`, e);
    return null;
  }
}

/**
 * A page of a rollout's conversation, read with the filter the index reads with (its skips depend on
 * no summary state that changes which messages a line gives), so positions match the index's.
 */
export function pageRollout(path: string, from: number, limit: number): MessagePage {
  return pageConversation(path, rolloutRead(), rolloutMessagesOf, from, limit);
}

/** The rollouts, stat'ed, newest first (what a cold index reads, in that order). */
export function listedRollouts(files: RolloutFile[]): ListedFile[] {
  const out: ListedFile[] = [];
  for (const f of files) {
    try {
      const st = statRegularFile(f.path);
      out.push({ path: f.path, size: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // unreadable or not a regular file: list() reads and counts it
    }
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** The cold index's fold of one rollout (runs in a worker thread). Never throws. */
export function foldCodexTask(task: FileTask): FileResult {
  try {
    const st = statRegularFile(task.path);
    const resume = task.from > 0 && isRolloutSummary(task.summary);
    const summary = resume ? (task.summary as RolloutSummary) : emptyRolloutSummary();
    const usage: UsageRecord[] = [];
    const from = resume ? task.from : 0;
    const items: TranscriptMessage[] | undefined = task.messages ? [] : undefined;
    const r = foldRolloutFile(task.path, from, summary, MAX_LINE_BYTES, task.usage === false ? undefined : usageSinkOf(task.path, usage), items);
    const messages = items ? messagesOf(task.path, from, items) : undefined;
    return {
      ok: true, path: task.path, size: st.size, mtimeMs: st.mtimeMs, offset: r.offset, summary, usage, ...(messages ? { messages } : {}),
      linesParsed: r.linesParsed + r.linesIgnored, linesSkipped: r.linesSkipped, bytes: task.bytes,
    };
  } catch (e) {
    return failedResult(task, e);
  }
}

/** Where a rollout's usage records go: `out`, counted for the thread its file name names (none without one). */
function usageSinkOf(path: string, out: UsageRecord[]): UsageSink | undefined {
  const threadId = threadIdFromRolloutName(basename(path));
  return threadId ? { sessionId: threadId, emit: (u) => void out.push(u) } : undefined;
}

/** The conversation messages a fold read from byte `from` of a rollout, for its thread (none without a thread id in its name). */
function messagesOf(path: string, from: number, items: TranscriptMessage[]): IndexedMessages | undefined {
  const threadId = threadIdFromRolloutName(basename(path));
  if (!threadId) return undefined;
  return { sessionId: threadId, from, items };
}
