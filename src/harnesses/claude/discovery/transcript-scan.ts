/**
 * Incremental scan of `projects/<slug>/<sessionId>.jsonl`: each transcript is read from the byte
 * offset its TranscriptIndex entry holds, folding only new lines into the saved summary. A file that
 * shrank or whose mtime went back was rewritten and is read again from 0; an unchanged file is not
 * opened at all (warm start costs one stat per file).
 */
import fs from 'node:fs';
import path from 'node:path';
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import type { TranscriptIndex } from '../../../discovery/contract.ts';
import { isNotRegularFile, statRegularFile } from '../../../discovery/regular-file/index.ts';
import { listTranscriptFiles } from './transcript-files.ts';
import { applyRecord, createTranscriptSummary, ignoreTranscriptLine, isTranscriptSummary } from './transcript.ts';
import type { TranscriptSummary } from './transcript.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';

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

export interface TranscriptScanOptions {
  projectsDir: string;
  index: TranscriptIndex;
  /** Lines longer than this are skipped unparsed (a 50 MB tool output). Default: 8 MiB. */
  maxLineBytes?: number;
  /** Links are followed only when they resolve inside this directory. Default: projectsDir's parent (the Claude home). */
  home?: string;
}

/** Reads every transcript (incrementally); counters are added to `counters`. */
export function scanTranscripts(options: TranscriptScanOptions, counters: TranscriptScanCounters): ScannedTranscript[] {
  const out: ScannedTranscript[] = [];
  const seen = new Set<string>();
  const home = options.home ?? path.dirname(options.projectsDir);
  for (const { file, id } of listTranscriptFiles(options.projectsDir, home, counters)) {
    seen.add(file);
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
  options: Pick<TranscriptScanOptions, 'index' | 'maxLineBytes'>,
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
  try {
    const r = readJsonlFrom(file, from, (rec) => applyRecord(summary, rec, sink), {
      ignore: ignoreTranscriptLine,
      maxLineBytes: options.maxLineBytes ?? 8 * 1024 * 1024,
    });
    counters.linesParsed += r.linesParsed;
    counters.linesSkipped += r.linesSkipped;
    // Lines the filter took unparsed were recognised by their Claude-specific heads: records too.
    summary.records += r.linesIgnored;
    options.index.put({ path: file, harness: 'claude', size: st.size, mtimeMs: st.mtimeMs, offset: r.offset, summary, usage });
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
