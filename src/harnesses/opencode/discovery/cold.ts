/**
 * OpenCode's cold index: a first start over a long history in OpenCode's store is read in the cold
 * indexer's worker threads, as Claude's and Codex's transcripts are, instead of in one long scan on
 * the daemon's thread. The store is one file, so a task is a chunk of sessions (newest first): each
 * worker opens the store read-only, reads its chunk in one read transaction and closes it at once, so
 * no handle stays open between chunks and OpenCode's writer and checkpoints are never held up.
 * Progress counts sessions ("indexed n / N").
 *
 * Two passes, as for the transcripts (cold-run.ts): the first reads what the listing needs, each
 * session's summary and its usage records (the bulk reader, db-bulk.ts); once the listing is complete,
 * the second (a task with `messages`) reads the same sessions' conversations for search
 * (conversation.ts), which costs several times the first: every part's text and tool output.
 */
import fs from 'node:fs';
import type { Database as Db } from 'better-sqlite3';
import { failedResult } from '../../../discovery/index-pool/index.ts';
import type { FileResult, FileTask } from '../../../discovery/index-pool/index.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { createBulkReader } from './db-bulk.ts';
import { createConversationReader } from './conversation.ts';
import type { IndexedMessages } from '../../../discovery/contract.ts';
import { openOpenCodeDb } from './db-reader.ts';
import { sessionTableColumns } from './db-rows.ts';
import type { ConversationMark, OpenCodeSessionSummary } from './summary.ts';

/** The fold's name in the worker's registry. */
export const OPENCODE_COLD_KIND = 'opencode';

/** What a task carries in `summary`: the top-level sessions of its chunk. */
export interface OpenCodeChunk {
  ids: string[];
}

/** What a chunk's result carries in `summary`. */
export interface OpenCodeChunkResult {
  /** The first pass: the chunk's sessions, without a search mark (none in the second). */
  sessions: OpenCodeSessionSummary[];
  /** The second pass: each session's conversation for the search index, by id; absent for one with none. */
  messages: Record<string, IndexedMessages>;
  /** The second pass: how far each session's conversation was read (its search mark), by id. */
  marks: Record<string, ConversationMark>;
}

export function isChunk(x: unknown): x is OpenCodeChunk {
  return typeof x === 'object' && x !== null && Array.isArray((x as OpenCodeChunk).ids);
}

/**
 * Reads one chunk of sessions: their summaries and usage records, or with `task.messages` their
 * conversations. Must not throw: a failure is a result with `ok: false`. Runs in a worker thread.
 */
export function foldOpenCodeTask(task: FileTask): FileResult {
  let db: Db | undefined;
  try {
    const ids = isChunk(task.summary) ? task.summary.ids : [];
    db = openOpenCodeDb(task.path);
    db.exec('BEGIN'); // one snapshot: a session and its messages agree
    let usage: UsageRecord[] = [];
    let malformed = 0;
    const summary: OpenCodeChunkResult = { sessions: [], messages: {}, marks: {} };
    try {
      if (task.messages === true) {
        const reader = createConversationReader(db);
        for (const id of ids) {
          const m = reader.update(id, undefined);
          summary.marks[id] = m.mark;
          if (m.messages) summary.messages[id] = m.messages;
        }
      } else {
        const r = createBulkReader(db, sessionTableColumns(db)).read(ids);
        summary.sessions = r.sessions;
        usage = r.usage;
        malformed = r.malformed;
      }
    } finally {
      db.exec('COMMIT');
    }
    const st = fs.statSync(task.path);
    return {
      ok: true, path: task.path, size: st.size, mtimeMs: st.mtimeMs, offset: 0, summary, usage,
      linesParsed: summary.sessions.length, linesSkipped: malformed, bytes: task.bytes,
    };
  } catch (e) {
    return failedResult(task, e);
  } finally {
    db?.close();
  }
}

/** Sessions per task: a batch of progress, and the most one worker reads in one transaction. */
export const CHUNK_SESSIONS = 32;

/** Splits `ids` (in reading order) into tasks over the store, each weighted by its share of the store's bytes. */
export function chunkTasks(dbPath: string, ids: readonly string[], storeBytes: number, total: number): FileTask[] {
  const tasks: FileTask[] = [];
  // Cumulative rounding: the chunks' bytes add up to the whole.
  const at = (i: number): number => Math.round((storeBytes * Math.min(i, total)) / Math.max(1, total));
  for (let i = 0; i < ids.length; i += CHUNK_SESSIONS) {
    const chunk: OpenCodeChunk = { ids: ids.slice(i, i + CHUNK_SESSIONS) };
    tasks.push({ path: dbPath, from: 0, summary: chunk, bytes: at(i + chunk.ids.length) - at(i) });
  }
  return tasks;
}

/** A chunk result's usage records, by session. */
export function usageBySession(usage: readonly UsageRecord[]): Map<string, UsageRecord[]> {
  const m = new Map<string, UsageRecord[]>();
  for (const r of usage) {
    const list = m.get(r.sessionId);
    if (list) list.push(r);
    else m.set(r.sessionId, [r]);
  }
  return m;
}
