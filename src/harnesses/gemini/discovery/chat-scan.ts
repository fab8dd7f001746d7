/**
 * Incremental reading of every chat file: each is read from the byte offset the TranscriptIndex
 * holds for it, folding only new lines into its saved summary; a file that shrank or whose mtime
 * went back was rewritten and is read again from 0. Then the files of one session are merged: a
 * `--resume` starts a second file with the same session id (holding only the header and the session
 * context) while the conversation goes on in the first, so a session is the sum of its files.
 */
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import { isNotRegularFile } from '../../../discovery/regular-file/index.ts';
import type { TranscriptIndex, TranscriptIndexEntry } from '../../../discovery/contract.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { replyUsageRecord } from './usage-records.ts';
import type { TokenCounts } from '../../../core/session.ts';
import { applyChatRecord, emptyChatSummary, type ChatSummary } from './chat-record.ts';
import { listChatFiles, type ChatFile } from './chat-files.ts';

/** One session: every chat file that carries its id, merged. */
export interface ChatSession {
  id: string;
  cwd: string | null;
  /** Its files, the one with the most messages first (where the conversation is). */
  files: string[];
  /** Newest mtime of its files, ms. */
  lastWriteMs: number;
  startedAt: string | null;
  /** When its newest file was started (a resume starts one), ms; 0 when no header says. */
  lastStartMs: number;
  lastActivityAt: string | null;
  title: string | null;
  firstPrompt: string | null;
  model: string | null;
  tokens: TokenCounts;
  byModel: Record<string, TokenCounts>;
  messages: number;
}

export interface ChatScan {
  sessions: ChatSession[];
  filesScanned: number;
  /** Unreadable files, files with no session header, links out of the home, FIFOs and devices. */
  filesSkipped: number;
  notRegular: number;
  linesParsed: number;
  linesSkipped: number;
  errors: string[];
}

/** Lines longer than this are never parsed (a reply with a huge tool output). */
const MAX_LINE = 8 * 1024 * 1024;

export function scanChats(home: string, index: TranscriptIndex): ChatScan {
  const listing = listChatFiles(home);
  const scan: ChatScan = { sessions: [], filesScanned: 0, filesSkipped: listing.skipped, notRegular: listing.notRegular, linesParsed: 0, linesSkipped: 0, errors: [...listing.errors] };
  const seen = new Set<string>();
  const read: { file: ChatFile; summary: ChatSummary }[] = [];
  for (const file of listing.files) {
    seen.add(file.path);
    scan.filesScanned++;
    const summary = readIncrementally(file, index, scan);
    if (!summary) continue;
    scan.linesParsed += summary.linesParsed;
    scan.linesSkipped += summary.linesSkipped;
    // A subagent's helper chat is part of its parent's work, not a session of its own.
    if (summary.sessionId === null || summary.kind === 'subagent') scan.filesSkipped++;
    else read.push({ file, summary });
  }
  // Forget files that are gone, so the index does not grow forever.
  const prefix = `${home.replace(/\/+$/, '')}/`;
  for (const e of index.list('gemini')) if (e.path.startsWith(prefix) && !seen.has(e.path)) index.remove(e.path);
  scan.sessions = merge(read);
  return scan;
}

function readIncrementally(file: ChatFile, index: TranscriptIndex, scan: ChatScan): ChatSummary | undefined {
  const entry = index.get(file.path);
  const saved = entry && isSummary(entry.summary) ? entry.summary : undefined;
  if (entry && saved && entry.size === file.size && entry.mtimeMs === file.mtimeMs) return saved;
  const resumable = entry && saved && file.size >= entry.offset && file.mtimeMs >= entry.mtimeMs;
  const summary = resumable ? structuredClone(saved) : emptyChatSummary();
  const usage: UsageRecord[] = [];
  const onRecord = (rec: unknown): void => {
    applyChatRecord(summary, rec);
    const u = summary.sessionId === null ? null : replyUsageRecord(summary.sessionId, summary.model, rec);
    if (u) usage.push(u);
  };
  try {
    const r = readJsonlFrom(file.path, resumable ? entry.offset : 0, onRecord, { maxLineBytes: MAX_LINE });
    summary.linesParsed += r.linesParsed;
    summary.linesSkipped += r.linesSkipped;
    const next: TranscriptIndexEntry = { path: file.path, harness: 'gemini', size: file.size, mtimeMs: file.mtimeMs, offset: r.offset, summary, usage };
    index.put(next);
    return summary;
  } catch (e) {
    scan.filesSkipped++;
    if (isNotRegularFile(e)) scan.notRegular++; // replaced by a FIFO or device since it was listed
    scan.errors.push(`${file.path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return undefined;
  }
}

/** A summary saved by this version (the store may hold older or foreign shapes: those are re-read). */
function isSummary(v: unknown): v is ChatSummary {
  const o = v as Partial<ChatSummary> | null;
  return !!o && typeof o === 'object' && typeof o.linesParsed === 'number' && typeof o.messages === 'number' && !!o.tokens && !!o.byModel && Array.isArray(o.recent);
}

const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null || a <= b ? a : b);
const later = (a: string | null, b: string | null) => (a === null ? b : b === null || a >= b ? a : b);

function addTokens(into: TokenCounts, t: TokenCounts): void {
  into.input += t.input;
  into.output += t.output;
  into.cacheRead += t.cacheRead;
  into.cacheWrite += t.cacheWrite;
}

function merge(read: { file: ChatFile; summary: ChatSummary }[]): ChatSession[] {
  const groups = new Map<string, { file: ChatFile; summary: ChatSummary }[]>();
  for (const r of read) {
    const id = r.summary.sessionId as string;
    groups.set(id, [...(groups.get(id) ?? []), r]);
  }
  const out: ChatSession[] = [];
  for (const [id, parts] of groups) {
    parts.sort((a, b) => b.summary.messages - a.summary.messages || a.file.path.localeCompare(b.file.path));
    const s: ChatSession = {
      id, cwd: null, files: parts.map((p) => p.file.path), lastWriteMs: 0, startedAt: null, lastStartMs: 0, lastActivityAt: null,
      title: null, firstPrompt: null, model: null, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, byModel: {}, messages: 0,
    };
    let modelAt: string | null = null;
    for (const { file, summary: c } of parts) {
      s.cwd ??= file.cwd;
      s.lastWriteMs = Math.max(s.lastWriteMs, file.mtimeMs);
      s.startedAt = earlier(s.startedAt, c.startedAt);
      s.lastStartMs = Math.max(s.lastStartMs, c.startedAt ? Date.parse(c.startedAt) : 0);
      s.lastActivityAt = later(s.lastActivityAt, c.lastActivityAt);
      s.title ??= c.title;
      s.firstPrompt ??= c.firstPrompt;
      if (c.model !== null && (s.model === null || (c.modelAt ?? '') > (modelAt ?? ''))) {
        s.model = c.model;
        modelAt = c.modelAt;
      }
      addTokens(s.tokens, c.tokens);
      for (const [m, t] of Object.entries(c.byModel)) {
        if (!Object.hasOwn(s.byModel, m)) s.byModel[m] = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
        addTokens(s.byModel[m] as TokenCounts, t);
      }
      s.messages += c.messages;
    }
    out.push(s);
  }
  return out;
}
