/**
 * Incremental scan of `projects/<slug>/<sessionId>.jsonl`: each transcript is read from the byte
 * offset its TranscriptIndex entry holds, folding only new lines into the saved summary. A file that
 * shrank or whose mtime went back was rewritten and is read again from 0; an unchanged file is not
 * opened at all (warm start costs one stat per file).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TranscriptIndex } from '../../../discovery/contract.ts';
import { failedResult } from '../../../discovery/index-pool/index.ts';
import type { FileResult, FileTask, ListedFile } from '../../../discovery/index-pool/index.ts';
import { isNotRegularFile, statRegularFile } from '../../../discovery/regular-file/index.ts';
import { listTranscriptFiles } from './transcript-files.ts';
import { createTranscriptSummary, isTranscriptSummary } from './transcript.ts';
import { foldTranscriptFile } from './transcript-lines.ts';
import type { TranscriptSummary } from './transcript.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import type { MessagePage } from '../../../core/transcript-message.ts';
import { pageClaudeLines } from './line-messages.ts';
import type { MessageCollector } from './transcript-lines.ts';

export interface ScannedTranscript {
  path: string;
  /** Session id from the file name (what `--resume` takes). */
  id: string;
  mtimeMs: number;
  summary: TranscriptSummary;
}

export interface TranscriptScanCounters {
  filesScanned: number;
  filesSkipped: number;
  linesParsed: number;
  linesSkipped: number;
  /** Of `filesSkipped`: FIFOs, sockets, devices and directories named like a transcript, never read. */
  notRegular: number;
  errors: string[];
}

/** Lines longer than this are skipped unparsed (a 50 MB tool output), unless their head says ignore. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

export interface TranscriptScanOptions {
  projectsDir: string;
  index: TranscriptIndex;
  /** Lines longer than this are skipped unparsed (a 50 MB tool output). Default: 8 MiB. */
  maxLineBytes?: number;
  /** Links are followed only when they resolve inside this directory. Default: projectsDir's parent (the Claude home). */
  home?: string;
  /** Hand the index each read's messages for search. Default: true. */
  search?: boolean;
  /** Files a cold index has not read yet: left out, and their index entries kept. Default: none. */
  pending?: ReadonlySet<string>;
}

/** Reads every transcript (incrementally); counters are added to `counters`. */
export function scanTranscripts(options: TranscriptScanOptions, counters: TranscriptScanCounters): ScannedTranscript[] {
  const out: ScannedTranscript[] = [];
  const seen = new Set<string>();
  const home = options.home ?? path.dirname(options.projectsDir);
  for (const { file, id } of listTranscriptFiles(options.projectsDir, home, counters)) {
    seen.add(file);
    if (options.pending?.has(file)) continue;
    counters.filesScanned++;
    const t = readTranscript(file, id, options, counters);
    if (t) out.push(t);
  }
  // Forget transcripts that are gone, so the index does not grow forever.
  const prefix = options.projectsDir.endsWith(path.sep) ? options.projectsDir : options.projectsDir + path.sep;
  for (const e of options.index.list('claude')) if (e.path.startsWith(prefix) && !seen.has(e.path)) options.index.remove(e.path);
  return out;
}

/**
 * Reads one transcript from where its index entry stopped; undefined when it cannot be read, or holds
 * no Claude Code record yet (a file becomes a session only with one: an empty or foreign file is not).
 */
export function readTranscript(
  file: string,
  id: string,
  options: Pick<TranscriptScanOptions, 'index' | 'maxLineBytes' | 'search'>,
  counters: TranscriptScanCounters,
): ScannedTranscript | undefined {
  let st: fs.Stats;
  try {
    st = statRegularFile(file); // e.g. a directory or a FIFO named like a transcript is refused
  } catch (e) {
    skip(counters, file, e, 'stat failed');
    return undefined;
  }
  const entry = options.index.get(file);
  const reusable = entry && isTranscriptSummary(entry.summary) && st.size >= entry.offset && st.mtimeMs >= entry.mtimeMs;
  if (reusable && st.size === entry.size && st.mtimeMs === entry.mtimeMs) {
    return session(file, id, st.mtimeMs, entry.summary as TranscriptSummary, counters);
  }
  // Fold into a copy: the index may hand out its stored object, and a failed read must not leave it half-updated.
  const summary: TranscriptSummary = reusable ? structuredClone(entry.summary as TranscriptSummary) : createTranscriptSummary();
  const from = reusable ? entry.offset : 0;
  const usage: UsageRecord[] = [];
  const sink = { sessionId: id, emit: (u: UsageRecord) => void usage.push(u) };
  const collector: MessageCollector | undefined = options.search !== false ? { items: [], options: { toolOutput: options.index.wantsToolOutput?.() ?? true } } : undefined;
  try {
    const r = foldTranscriptFile(file, from, summary, options.maxLineBytes ?? MAX_LINE_BYTES, sink, collector);
    counters.linesParsed += r.linesParsed;
    counters.linesSkipped += r.linesSkipped;
    const messages = collector ? { messages: { sessionId: id, from, items: collector.items } } : {};
    options.index.put({ path: file, harness: 'claude', size: st.size, mtimeMs: st.mtimeMs, offset: r.offset, summary, usage, ...messages });
  } catch (e) {
    skip(counters, file, e, 'read failed');
    return undefined;
  }
  return session(file, id, st.mtimeMs, summary, counters);
}

function session(file: string, id: string, mtimeMs: number, summary: TranscriptSummary, counters: TranscriptScanCounters): ScannedTranscript | undefined {
  if (summary.records > 0) return { path: file, id, mtimeMs, summary };
  counters.filesSkipped++;
  return undefined;
}

function skip(counters: TranscriptScanCounters, file: string, e: unknown, what: string): void {
  counters.filesSkipped++;
  if (isNotRegularFile(e)) {
    counters.notRegular++;
    counters.errors.push(e.message);
  } else counters.errors.push(`${file}: ${(e as NodeJS.ErrnoException).code ?? what}`);
}

/** Every transcript file, stat'ed, newest first (what a cold index reads, in that order). */
export function listedTranscripts(projectsDir: string, home: string): ListedFile[] {
  const ignore = { filesSkipped: 0, errors: [] as string[] }; // list() counts these on its own pass
  const out: ListedFile[] = [];
  for (const { file } of listTranscriptFiles(projectsDir, home, ignore)) {
    try {
      const st = statRegularFile(file);
      out.push({ path: file, size: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // unreadable or not a regular file: list() reads and counts it
    }
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** The cold index's fold of one transcript (runs in a worker thread). Never throws. */
export function foldClaudeTask(task: FileTask): FileResult {
  try {
    const st = statRegularFile(task.path);
    const resume = task.from > 0 && isTranscriptSummary(task.summary);
    const summary = resume ? (task.summary as TranscriptSummary) : createTranscriptSummary();
    const usage: UsageRecord[] = [];
    // The session id is the file's name, as listing takes it (transcript-files.ts).
    const sink = { sessionId: path.basename(task.path, '.jsonl'), emit: (u: UsageRecord) => void usage.push(u) };
    const from = resume ? task.from : 0;
    const collector: MessageCollector | undefined = task.messages ? { items: [], options: { toolOutput: task.toolOutput !== false } } : undefined;
    const r = foldTranscriptFile(task.path, from, summary, MAX_LINE_BYTES, task.usage === false ? undefined : sink, collector);
    const messages = collector ? { messages: { sessionId: sink.sessionId, from, items: collector.items } } : {};
    return { ok: true, path: task.path, size: st.size, mtimeMs: st.mtimeMs, offset: r.offset, summary, usage, ...messages, linesParsed: r.linesParsed, linesSkipped: r.linesSkipped, bytes: task.bytes };
  } catch (e) {
    return failedResult(task, e);
  }
}

/** A page of a transcript's conversation, read as the index reads messages, so positions match. */
export function pageClaudeTranscript(file: string, from: number, limit: number, maxLineBytes = MAX_LINE_BYTES): MessagePage {
  return pageClaudeLines(file, from, limit, maxLineBytes);
}
