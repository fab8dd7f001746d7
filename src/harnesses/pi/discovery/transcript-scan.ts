/**
 * Incremental scan of a sessions directory: each file is read from the byte offset the
 * TranscriptIndex holds for it, folding only new lines into the saved summary. A file that shrank
 * or whose mtime went back was rewritten: it is read again from 0.
 */
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import { isNotRegularFile } from '../../../discovery/regular-file/index.ts';
import type { TranscriptIndex, TranscriptIndexEntry } from '../../../discovery/contract.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { messageUsageRecord } from './usage-records.ts';
import { asObj } from './records.ts';
import { listSessionFiles } from './session-files.ts';
import type { SessionFile } from './session-files.ts';
import { applyRecord, applyToolResult, emptySummary, toolResultFromHead } from './transcript-summary.ts';
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
  afterRead?: (file: SessionFile, summary: TranscriptSummary) => void;
}

export function scanTranscripts(options: ScanOptions): ScanResult {
  const listing = listSessionFiles(options.sessionsDir, options.home);
  const result: ScanResult = {
    transcripts: [], filesScanned: 0, filesSkipped: listing.skipped, notRegular: listing.notRegular, errors: [...listing.errors],
  };
  const seen = new Set<string>();
  for (const file of listing.files) {
    seen.add(file.path);
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
  const saved = entry && isSummary(entry.summary) ? entry.summary : undefined;
  if (entry && saved && entry.size === file.size && entry.mtimeMs === file.mtimeMs) return saved;
  const resumable = entry && saved && file.size >= entry.offset && file.mtimeMs >= entry.mtimeMs;
  const summary = resumable ? structuredClone(saved) : emptySummary();
  const offset = resumable ? entry.offset : 0;
  const usage: UsageRecord[] = [];
  const onRecord = (record: unknown): void => {
    applyRecord(summary, record);
    const sessionId = summary.id ?? file.nameId;
    const u = sessionId === null ? null : messageUsageRecord(options.harness, sessionId, summary.model, record);
    if (u) usage.push(u);
  };
  try {
    const r = readJsonlFrom(file.path, offset, onRecord, {
      // Tool outputs can be huge and are never shown: note their result from the line head, skip the parse.
      ignore: (head) => {
        const tr = toolResultFromHead(head);
        if (tr) applyToolResult(summary, tr.toolCallId, tr.at);
        return tr !== undefined;
      },
      maxLineBytes: options.maxLineBytes ?? 8 * 1024 * 1024,
    });
    summary.linesParsed += r.linesParsed;
    summary.linesSkipped += r.linesSkipped;
    options.afterRead?.(file, summary);
    const next: TranscriptIndexEntry = { path: file.path, harness: options.harness, size: file.size, mtimeMs: file.mtimeMs, offset: r.offset, summary, usage };
    options.index.put(next);
    return summary;
  } catch (e) {
    result.filesSkipped++;
    if (isNotRegularFile(e)) result.notRegular++; // replaced by a FIFO or device since it was listed
    result.errors.push(`${file.path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return undefined;
  }
}

/** A summary saved by this version (the store may hold older or foreign shapes: those are re-read). */
function isSummary(v: unknown): v is TranscriptSummary {
  const o = asObj(v);
  return !!o && typeof o['linesParsed'] === 'number' && !!asObj(o['tokens']) && !!asObj(o['last']) && Array.isArray(o['pending']);
}
