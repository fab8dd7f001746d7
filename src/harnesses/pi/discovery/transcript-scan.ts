/**
 * Incremental scan of a sessions directory: each file is read from the byte offset the
 * TranscriptIndex holds for it, folding only new lines into the saved summary. A file that shrank
 * or whose mtime went back was rewritten: it is read again from 0.
 */
import { isNotRegularFile } from '../../../discovery/regular-file/index.ts';
import type { TranscriptIndex, TranscriptIndexEntry } from '../../../discovery/contract.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { listSessionFiles } from './session-files.ts';
import type { SessionFile } from './session-files.ts';
import { emptySummary } from './transcript-summary.ts';
import { foldPiFile, isPiSummary, MAX_LINE_BYTES, messageCollector, usageCollector } from './transcript-fold.ts';
import type { MessagePage, TranscriptMessage } from '../../../core/transcript-message.ts';
import { pageConversation } from '../../../discovery/jsonl/index.ts';
import { piMessagesOf } from './messages.ts';
import { toolResultFromHead } from './transcript-summary.ts';
import type { TranscriptSummary } from './transcript-summary.ts';

export interface ScannedTranscript {
  path: string;
  size: number;
  mtimeMs: number;
  /** The session id: from the header line, else from the file name. */
  id: string;
  summary: TranscriptSummary;
}

export interface ScanResult {
  transcripts: ScannedTranscript[];
  filesScanned: number;
  /** Unreadable files, directories named like session files, files with no session in them. */
  filesSkipped: number;
  /** Of `filesSkipped`: entries that were not regular files (FIFO, socket, device, directory), never read. */
  notRegular: number;
  errors: string[];
}

export interface ScanOptions {
  harness: 'pi' | 'omp';
  sessionsDir: string;
  /** Linked session files are read only when they resolve inside it. Default: sessionsDir. */
  home?: string;
  index: TranscriptIndex;
  /** Lines longer than this are skipped unparsed. Default: 8 MiB. */
  maxLineBytes?: number;
  /** Called after a changed file was read (omp re-reads its in-place title line here). */
  afterRead?: (path: string, summary: TranscriptSummary) => void;
  /** Files a cold index has not read yet: left out, and their index entries kept. Default: none. */
  pending?: ReadonlySet<string>;
}

export function scanTranscripts(options: ScanOptions): ScanResult {
  const listing = listSessionFiles(options.sessionsDir, options.home);
  const result: ScanResult = {
    transcripts: [], filesScanned: 0, filesSkipped: listing.skipped, notRegular: listing.notRegular, errors: [...listing.errors],
  };
  const seen = new Set<string>();
  for (const file of listing.files) {
    seen.add(file.path);
    if (options.pending?.has(file.path)) continue;
    result.filesScanned++;
    const summary = readIncrementally(file, options, result);
    if (!summary) continue;
    const id = summary.id ?? (summary.messages > 0 ? file.nameId : null);
    if (id === null) { result.filesSkipped++; continue; }
    result.transcripts.push({ path: file.path, size: file.size, mtimeMs: file.mtimeMs, id, summary });
  }
  // Forget files that are gone, so the index does not grow forever.
  const prefix = options.sessionsDir.endsWith('/') ? options.sessionsDir : `${options.sessionsDir}/`;
  for (const e of options.index.list(options.harness)) {
    if (e.path.startsWith(prefix) && !seen.has(e.path)) options.index.remove(e.path);
  }
  return result;
}

function readIncrementally(file: SessionFile, options: ScanOptions, result: ScanResult): TranscriptSummary | undefined {
  const entry = options.index.get(file.path);
  const saved = entry && isPiSummary(entry.summary) ? entry.summary : undefined;
  if (entry && saved && entry.size === file.size && entry.mtimeMs === file.mtimeMs) return saved;
  const resumable = entry && saved && file.size >= entry.offset && file.mtimeMs >= entry.mtimeMs;
  const summary = resumable ? structuredClone(saved) : emptySummary();
  const offset = resumable ? entry.offset : 0;
  const usage: UsageRecord[] = [];
  const items: TranscriptMessage[] = [];
  try {
    const collectUsage = usageCollector(options.harness, file.nameId, summary, usage);
    const collectMessages = messageCollector(items);
    const reached = foldPiFile(file.path, offset, summary, options.maxLineBytes, (record) => {
      collectUsage(record);
      collectMessages(record);
    });
    options.afterRead?.(file.path, summary);
    const sessionId = summary.id ?? file.nameId;
    const messages = sessionId === null ? undefined : { sessionId, from: offset, items };
    const next: TranscriptIndexEntry = { path: file.path, harness: options.harness, size: file.size, mtimeMs: file.mtimeMs, offset: reached, summary, usage, ...(messages ? { messages } : {}) };
    options.index.put(next);
    return summary;
  } catch (e) {
    result.filesSkipped++;
    if (isNotRegularFile(e)) result.notRegular++; // replaced by a FIFO or device since it was listed
    result.errors.push(`${file.path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return undefined;
  }
}

/** A page of one session file's conversation, read with the scan's filter so positions match the index's. */
export function pageSessionFile(path: string, from: number, limit: number, maxLineBytes = MAX_LINE_BYTES): MessagePage {
  return pageConversation(path, { ignore: (head) => toolResultFromHead(head) !== undefined, maxLineBytes }, piMessagesOf, from, limit);
}
