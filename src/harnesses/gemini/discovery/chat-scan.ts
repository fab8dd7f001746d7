/**
 * Incremental reading of every chat file: each is read from the byte offset the TranscriptIndex
 * holds for it, folding only new lines into its saved summary; a file that shrank or whose mtime
 * went back was rewritten and is read again from 0. Then the files of one session are merged: a
 * `--resume` starts a second file with the same session id (holding only the header and the session
 * context) while the conversation goes on in the first, so a session is the sum of its files. A
 * session whose conversation changed is handed to the search index again, whole (conversation.ts).
 */
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import { isNotRegularFile } from '../../../discovery/regular-file/index.ts';
import type { IndexedMessages, TranscriptIndex, TranscriptIndexEntry } from '../../../discovery/contract.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { replyUsageRecord } from './usage-records.ts';
import type { TokenCounts } from '../../../core/session.ts';
import { addTokens, emptyTokens } from '../../../core/session.ts';
import { ownEntry } from '../../../discovery/own-keys.ts';
import { applyChatRecord, CHAT_SUMMARY_FORMAT, emptyChatSummary, type ChatSummary } from './chat-record.ts';
import { CHAT_MAX_LINE, editsConversation, readGeminiConversation } from './conversation.ts';
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

export function scanChats(home: string, index: TranscriptIndex): ChatScan {
  const listing = listChatFiles(home);
  const scan: ChatScan = { sessions: [], filesScanned: 0, filesSkipped: listing.skipped, notRegular: listing.notRegular, linesParsed: 0, linesSkipped: 0, errors: [...listing.errors] };
  const seen = new Set<string>();
  const folded: Folded[] = [];
  // Sessions whose conversation may have changed: their messages are indexed again, whole.
  const edited = new Set<string>();
  for (const file of listing.files) {
    seen.add(file.path);
    scan.filesScanned++;
    const f = readIncrementally(file, index, scan);
    if (!f) continue;
    folded.push(f);
    if (f.edited && f.summary.sessionId !== null) edited.add(f.summary.sessionId);
  }
  // Forget files that are gone, so the index does not grow forever (their session is indexed again).
  const prefix = `${home.replace(/\/+$/, '')}/`;
  for (const e of index.list('gemini')) {
    if (!e.path.startsWith(prefix) || seen.has(e.path)) continue;
    const gone = isSummary(e.summary) ? e.summary.sessionId : null;
    if (gone !== null) edited.add(gone);
    index.remove(e.path);
  }
  const read: Folded[] = [];
  for (const f of folded) {
    scan.linesParsed += f.summary.linesParsed;
    scan.linesSkipped += f.summary.linesSkipped;
    // A subagent's helper chat is part of its parent's work, not a session of its own.
    if (f.summary.sessionId === null || f.summary.kind === 'subagent') scan.filesSkipped++;
    else read.push(f);
  }
  const search = searchMessages(read, edited);
  for (const f of folded) {
    const messages = search.get(f.file.path);
    if (f.changed || messages) index.put({ ...f.entry, ...(messages ? { messages } : {}) });
  }
  scan.sessions = merge(read);
  return scan;
}

/** One file after its incremental read; its entry is put once the session's messages are known. */
interface Folded {
  file: ChatFile;
  summary: ChatSummary;
  entry: TranscriptIndexEntry;
  /** New bytes were read (the entry must be put). */
  changed: boolean;
  /** The bytes read edit the conversation (a message, a list replaced, a rewind), or the file was read from 0. */
  edited: boolean;
}

/**
 * The search index's messages for the files of sessions whose conversation changed: the session's whole
 * conversation under its oldest file (header start, then path), nothing under its other files. Gemini
 * rewrites replies under their ids and a resume rewrites the list, so a session is indexed again whole
 * (a file's new bytes are not just new messages); a session's hits then never outlive a rewrite.
 */
function searchMessages(read: readonly Folded[], edited: ReadonlySet<string>): Map<string, IndexedMessages> {
  const out = new Map<string, IndexedMessages>();
  const bySession = new Map<string, Folded[]>();
  for (const f of read) {
    const id = f.summary.sessionId as string;
    if (edited.has(id)) bySession.set(id, [...(bySession.get(id) ?? []), f]);
  }
  for (const [sessionId, files] of bySession) {
    files.sort((a, b) => (a.summary.startedAt ?? '').localeCompare(b.summary.startedAt ?? '') || a.file.path.localeCompare(b.file.path));
    const items = readGeminiConversation(files.map((f) => f.file.path));
    files.forEach((f, i) => out.set(f.file.path, { sessionId, from: 0, items: i === 0 ? items : [] }));
  }
  return out;
}

function readIncrementally(file: ChatFile, index: TranscriptIndex, scan: ChatScan): Folded | undefined {
  const entry = index.get(file.path);
  const saved = entry && isSummary(entry.summary) ? entry.summary : undefined;
  if (entry && saved && entry.size === file.size && entry.mtimeMs === file.mtimeMs) return { file, summary: saved, entry, changed: false, edited: false };
  const resumable = entry && saved && file.size >= entry.offset && file.mtimeMs >= entry.mtimeMs;
  const summary = resumable ? structuredClone(saved) : emptyChatSummary();
  const usage: UsageRecord[] = [];
  let edited = !resumable;
  const onRecord = (rec: unknown): void => {
    applyChatRecord(summary, rec);
    edited ||= editsConversation(rec);
    const u = summary.sessionId === null ? null : replyUsageRecord(summary.sessionId, summary.model, rec);
    if (u) usage.push(u);
  };
  try {
    const r = readJsonlFrom(file.path, resumable ? entry.offset : 0, onRecord, { maxLineBytes: CHAT_MAX_LINE });
    summary.linesParsed += r.linesParsed;
    summary.linesSkipped += r.linesSkipped;
    const next: TranscriptIndexEntry = { path: file.path, harness: 'gemini', size: file.size, mtimeMs: file.mtimeMs, offset: r.offset, summary, usage };
    return { file, summary, entry: next, changed: true, edited };
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
  return !!o && typeof o === 'object' && o.format === CHAT_SUMMARY_FORMAT && typeof o.linesParsed === 'number' && typeof o.messages === 'number' && !!o.tokens && !!o.byModel && Array.isArray(o.recent);
}

const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null || a <= b ? a : b);
const later = (a: string | null, b: string | null) => (a === null ? b : b === null || a >= b ? a : b);

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
        addTokens(ownEntry(s.byModel, m, emptyTokens), t);
      }
      s.messages += c.messages;
    }
    out.push(s);
  }
  return out;
}
