/**
 * One pi/omp session file folded from a byte offset into its summary — what the index calls, in the
 * daemon's thread or a cold index's worker. A tool result (outputs can be megabytes and are never
 * shown) is noted from the head of its line and never parsed; only a line that starts like one has its
 * head decoded to look. Every other line is parsed whole.
 */
import { basename } from 'node:path';
import { isBlank, parseJsonLine, readLinesFrom } from '../../../discovery/jsonl/index.ts';
import { failedResult } from '../../../discovery/index-pool/index.ts';
import type { FileResult, FileTask } from '../../../discovery/index-pool/index.ts';
import { statRegularFile } from '../../../discovery/regular-file/index.ts';
import type { Harness } from '../../../core/session.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { asObj } from './records.ts';
import { idFromFileName } from './session-files.ts';
import { messageUsageRecord } from './usage-records.ts';
import { piMessagesOf } from './messages.ts';
import type { TranscriptMessage } from '../../../core/transcript-message.ts';
import { applyRecord, applyToolResult, emptySummary, toolResultFromHead } from './transcript-summary.ts';
import type { TranscriptSummary } from './transcript-summary.ts';

/** Lines longer than this are skipped unparsed. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
const HEAD_BYTES = 512;
/** What every tool-result head begins with (toolResultFromHead's pattern starts so). */
const MESSAGE_HEAD = Buffer.from('{"type":"message"');

function startsWithMessage(line: Buffer): boolean {
  if (line.length < MESSAGE_HEAD.length) return false;
  for (let i = 0; i < MESSAGE_HEAD.length; i++) if (line[i] !== MESSAGE_HEAD[i]) return false;
  return true;
}

/** A tool result noted from its head (and true), or false. */
function tookToolResult(s: TranscriptSummary, line: Buffer): boolean {
  if (!startsWithMessage(line)) return false;
  const tr = toolResultFromHead(line.subarray(0, HEAD_BYTES).toString('utf8'));
  if (tr) applyToolResult(s, tr.toolCallId, tr.at);
  return tr !== undefined;
}

/** Hears each parsed record after it was folded into the summary. */
export type RecordListener = (record: unknown) => void;

/**
 * A listener that puts each assistant message's usage record into `out`, counted for the session the
 * summary names so far (its header), else for `nameId` (the file name's id); none without either.
 */
export function usageCollector(harness: Harness, nameId: string | null, s: TranscriptSummary, out: UsageRecord[]): RecordListener {
  return (record) => {
    const sessionId = s.id ?? nameId;
    const u = sessionId === null ? null : messageUsageRecord(harness, sessionId, s.model, record);
    if (u) out.push(u);
  };
}

/** A listener that puts each record's conversation messages into `out` (search). */
export function messageCollector(out: TranscriptMessage[]): RecordListener {
  return (record) => {
    for (const m of piMessagesOf(record)) out.push(m);
  };
}

/**
 * Folds the complete lines of `path` from `from` into `s` (its line counts too), telling `onRecord`
 * of each parsed record; returns the offset reached. Throws when unreadable.
 */
export function foldPiFile(path: string, from: number, s: TranscriptSummary, maxLineBytes = MAX_LINE_BYTES, onRecord?: RecordListener): number {
  const r = readLinesFrom(path, from, {
    line(bytes) {
      if (isBlank(bytes) || tookToolResult(s, bytes)) return;
      const record = parseJsonLine(bytes, s);
      if (record === undefined) return;
      applyRecord(s, record);
      onRecord?.(record);
    },
    oversize(head) {
      if (isBlank(head) || !tookToolResult(s, head)) s.linesSkipped++;
    },
  }, { maxLineBytes, headBytes: HEAD_BYTES });
  return r.offset;
}

/** A summary saved by this version (the store may hold older or foreign shapes: those are re-read). */
export function isPiSummary(v: unknown): v is TranscriptSummary {
  const o = asObj(v);
  return !!o && typeof o['linesParsed'] === 'number' && !!asObj(o['tokens']) && !!asObj(o['last']) && Array.isArray(o['pending']);
}

/**
 * The cold index's fold of one session file (runs in a worker thread); `afterRead` is the harness's
 * own step after a read (omp re-reads its in-place title line). Never throws.
 */
export function piFold(harness: 'pi' | 'omp', afterRead?: (path: string, summary: TranscriptSummary) => void): (task: FileTask) => FileResult {
  return (task) => {
    try {
      const st = statRegularFile(task.path);
      const resume = task.from > 0 && isPiSummary(task.summary);
      const summary = resume ? (task.summary as TranscriptSummary) : emptySummary();
      const before = { parsed: summary.linesParsed, skipped: summary.linesSkipped };
      const usage: UsageRecord[] = [];
      const nameId = idFromFileName(basename(task.path));
      const from = resume ? task.from : 0;
      const items: TranscriptMessage[] = [];
      const collectUsage = task.usage === false ? null : usageCollector(harness, nameId, summary, usage);
      const collectMessages = task.messages ? messageCollector(items) : null;
      const offset = foldPiFile(task.path, from, summary, MAX_LINE_BYTES, (record) => {
        collectUsage?.(record);
        collectMessages?.(record);
      });
      afterRead?.(task.path, summary);
      const sessionId = summary.id ?? nameId;
      const messages = collectMessages && sessionId !== null ? { messages: { sessionId, from, items } } : {};
      return {
        ok: true, path: task.path, size: st.size, mtimeMs: st.mtimeMs, offset, summary, usage, ...messages,
        linesParsed: summary.linesParsed - before.parsed, linesSkipped: summary.linesSkipped - before.skipped, bytes: task.bytes,
      };
    } catch (e) {
      return failedResult(task, e);
    }
  };
}
