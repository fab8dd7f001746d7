/**
 * Incremental reading of each session's events.jsonl: the transcript index keeps, per file, the byte
 * offset of the last complete line and the summary folded so far, so a listing reads only what was
 * appended since. A file that shrank or whose mtime went back was rewritten: it is read from 0.
 */
import type { TranscriptIndex, TranscriptIndexEntry } from '../../../discovery/contract.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { copilotUsageRecord } from './usage-records.ts';
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import { isNotRegularFile } from '../../../discovery/regular-file/index.ts';
import { applyEvent, emptySummary, ignoredLine, type EventsSummary } from './events.ts';
import type { MessagePage, TranscriptMessage } from '../../../core/transcript-message.ts';
import { pageConversation } from '../../../discovery/jsonl/index.ts';
import { copilotMessagesOf } from './messages.ts';

export interface ReadCounters {
  linesParsed: number;
  linesSkipped: number;
  filesSkipped: number;
  notRegular: number;
  errors: string[];
}

/** Lines longer than this are skipped unparsed (a tool result can be large; nothing Muster shows is). */
const MAX_LINE_BYTES = 8 * 1024 * 1024;

export function readEvents(file: { path: string; size: number; mtimeMs: number }, index: TranscriptIndex, c: ReadCounters): EventsSummary | null {
  const entry = index.get(file.path);
  const saved = entry && isSummary(entry.summary) ? entry.summary : undefined;
  if (entry && saved && entry.size === file.size && entry.mtimeMs === file.mtimeMs) return saved;
  const resumable = entry && saved && file.size >= entry.offset && file.mtimeMs >= entry.mtimeMs;
  const summary = resumable ? structuredClone(saved) : emptySummary();
  const usage: UsageRecord[] = [];
  const items: TranscriptMessage[] = [];
  const from = resumable ? entry.offset : 0;
  const onRecord = (rec: unknown): void => {
    applyEvent(summary, rec);
    for (const m of copilotMessagesOf(rec)) items.push(m);
    const u = summary.sessionId === null ? null : copilotUsageRecord(summary.sessionId, rec);
    if (u) usage.push(u);
  };
  try {
    const r = readJsonlFrom(file.path, from, onRecord, { ignore: ignoredLine, maxLineBytes: MAX_LINE_BYTES });
    summary.linesParsed += r.linesParsed;
    summary.linesSkipped += r.linesSkipped;
    c.linesParsed += r.linesParsed;
    c.linesSkipped += r.linesSkipped;
    const messages = summary.sessionId === null ? undefined : { sessionId: summary.sessionId, from, items };
    const next: TranscriptIndexEntry = { path: file.path, harness: 'copilot', size: file.size, mtimeMs: file.mtimeMs, offset: r.offset, summary, usage, ...(messages ? { messages } : {}) };
    index.put(next);
    return summary;
  } catch (e) {
    c.filesSkipped++;
    if (isNotRegularFile(e)) c.notRegular++; // replaced by a FIFO or device since it was listed
    c.errors.push(`${file.path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return null;
  }
}

/** Entries of files that are gone are dropped, so the index does not grow forever. */
export function forgetGone(index: TranscriptIndex, root: string, seen: ReadonlySet<string>): void {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  for (const e of index.list('copilot')) if (e.path.startsWith(prefix) && !seen.has(e.path)) index.remove(e.path);
}

/** A summary saved by this version (older or foreign shapes in the store are read again). */
function isSummary(v: unknown): v is EventsSummary {
  const o = v as Partial<EventsSummary> | null;
  return !!o && typeof o === 'object' && typeof o.linesParsed === 'number' && typeof o.records === 'number' && o.forkedFrom !== undefined && !!o.tokens && !!o.byModel && Array.isArray(o.pending) && !!o.last;
}

/** A page of one events.jsonl's conversation, read with the scan's filter so positions match the index's. */
export function pageEvents(path: string, from: number, limit: number): MessagePage {
  return pageConversation(path, { ignore: ignoredLine, maxLineBytes: MAX_LINE_BYTES }, copilotMessagesOf, from, limit);
}
