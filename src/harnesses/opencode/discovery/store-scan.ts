/**
 * Keeps the per-session summaries of both OpenCode stores current, through the TranscriptIndex port:
 * the SQLite store is opened only when `opencode.db` or its WAL changed since the last scan (size and
 * mtime), and then only changed sessions are re-read. Entries: `<db>` holds the file fingerprint,
 * `<db>#<sessionId>` one session's summary (and its messages in the search index); the JSON tree's
 * sessions are `<storage>#<sessionId>` (not searched).
 */
import fs from 'node:fs';
import type { IndexedMessages, TranscriptIndex } from '../../../discovery/contract.ts';
import { isNotRegularFile } from '../../../discovery/regular-file/index.ts';
import { DEFAULT_COLD_MIN_BYTES, type ColdIndexing, type FileResult } from '../../../discovery/index-pool/index.ts';
import type { IndexProgress } from '../../../discovery/contract.ts';
import { OPENCODE_COLD_KIND, chunkTasks, usageBySession, type OpenCodeChunkResult } from './cold.ts';
import { openOpenCodeDb, readSessionIds, scanOpenCodeDb } from './db-reader.ts';
import { scanJsonStorage } from './json-storage.ts';
import type { OpenCodeSessionSummary } from './summary.ts';

export interface StoreCounters {
  filesScanned: number;
  filesSkipped: number;
  linesParsed: number;
  linesSkipped: number;
  /** Of `filesSkipped`: store or record files that were FIFOs, sockets, devices or directories, never read. */
  notRegular: number;
  errors: string[];
}

export interface StoreScanner {
  /** Current summaries of every top-level session (the SQLite store wins over the JSON tree). */
  scan(): Map<string, OpenCodeSessionSummary>;
  /**
   * Reads the store's sessions the index does not hold (or holds stale) in the cold indexer's workers,
   * when they are worth it (cold.ts); while it runs, scan() serves what has landed. Null when there is
   * nothing to read that way; else resolves once every chunk is in (never rejects).
   */
  coldIndex(cold: ColdIndexing, onProgress: (p: IndexProgress) => void): Promise<void> | null;
}

export function createStoreScanner(opts: { dbPath: string; storageDir: string; index: TranscriptIndex; counters: StoreCounters }): StoreScanner {
  const { dbPath, storageDir, index, counters } = opts;
  let db = loadFromIndex(index, `${dbPath}#`);
  let json = loadFromIndex(index, `${storageDir}#`);

  /** True while a cold index reads the store: scanDb leaves it to it. */
  let coldRunning = false;
  /**
   * Sessions whose conversation the cold index's second pass has yet to bring (cold.ts), each with the
   * summary its first pass read (the second pass completes that one only).
   */
  const awaitingSearch = new Map<string, OpenCodeSessionSummary>();

  function scanDb(): void {
    if (coldRunning) return;
    const fp = fingerprint(dbPath);
    const entry = index.get(dbPath);
    if (fp === null) {
      if (entry) forget(dbPath, db);
      db = new Map();
      return;
    }
    // Unchanged store: nothing to read, unless a session was summarised before search (read it once more).
    if (entry && (entry.summary as { fp?: string } | null)?.fp === fp && allSearched(db, awaitingSearch)) return;
    let handle;
    try {
      handle = openOpenCodeDb(dbPath);
      const r = scanOpenCodeDb(handle, db, { searchPending: awaitingSearch });
      counters.filesScanned++;
      counters.linesParsed += r.reread;
      counters.linesSkipped += r.malformed;
      persist(dbPath, db, r.sessions, r.messages);
      db = r.sessions;
      const st = fs.statSync(dbPath);
      index.put({ path: dbPath, harness: 'opencode', size: st.size, mtimeMs: st.mtimeMs, offset: 0, summary: { fp }, usage: r.usage });
    } catch (e) {
      counters.filesSkipped++;
      if (isNotRegularFile(e)) counters.notRegular++;
      pushError(counters, `opencode db ${dbPath}: ${(e as Error).message}`);
    } finally {
      handle?.close();
    }
  }

  function scanJson(): void {
    const c = { filesScanned: 0, filesSkipped: 0, notRegular: 0, malformed: 0, errors: [] as string[] };
    const next = scanJsonStorage(storageDir, json, c);
    counters.filesScanned += c.filesScanned;
    counters.filesSkipped += c.filesSkipped;
    counters.notRegular += c.notRegular;
    counters.linesSkipped += c.malformed;
    for (const e of c.errors) pushError(counters, e);
    persist(storageDir, json, next);
    json = next;
  }

  function persist(prefix: string, before: Map<string, OpenCodeSessionSummary>, after: Map<string, OpenCodeSessionSummary>, messages?: Map<string, IndexedMessages>): void {
    for (const [id, s] of after) {
      if (before.get(id) === s) continue;
      // A session's messages go to the search index with its entry (a removed one leaves with it).
      const m = messages?.get(id);
      // Messages from position 0 are the whole conversation: they bring a session the cold index left
      // behind in search level (its second pass then leaves it be: the summary is not its first pass's).
      const level = m?.position === 0 ? { searchLater: false } : {};
      index.put({ path: `${prefix}#${id}`, harness: 'opencode', size: 0, mtimeMs: s.updatedMs ?? 0, offset: 0, summary: s, ...(m ? { messages: m, ...level } : {}) });
    }
    for (const id of before.keys()) if (!after.has(id)) index.remove(`${prefix}#${id}`);
  }

  function forget(prefix: string, m: Map<string, OpenCodeSessionSummary>): void {
    for (const id of m.keys()) index.remove(`${prefix}#${id}`);
    index.remove(prefix);
  }

  /** Plans the cold read: the sessions the index does not hold, newest first (no change keys: one plain query). */
  function planCold(): { ids: string[]; bytes: number } | null {
    if (fingerprint(dbPath) === null || index.get(dbPath)) return null; // no store, or one scanned before
    let handle;
    try {
      handle = openOpenCodeDb(dbPath);
      const all = readSessionIds(handle);
      const ids = all.filter((id) => !db.has(id));
      const st = fs.statSync(dbPath);
      return { ids, bytes: Math.round((st.size * ids.length) / Math.max(1, all.length)) };
    } catch (e) {
      pushError(counters, `opencode db ${dbPath}: ${(e as Error).message}`);
      return null;
    } finally {
      handle?.close();
    }
  }

  /**
   * After a cold index that read every session of a store nothing was committed to meanwhile (same
   * fingerprint), the index holds the store as it is: the next scan need not compare every change key.
   */
  function settleCold(fp: string | null, complete: boolean): void {
    if (!complete || fp === null || fingerprint(dbPath) !== fp) return;
    const st = fs.statSync(dbPath);
    index.put({ path: dbPath, harness: 'opencode', size: st.size, mtimeMs: st.mtimeMs, offset: 0, summary: { fp } });
  }

  /** The first pass's results: summaries and usage records; each session is behind in search until the second. */
  function applyChunk(r: FileResult): void {
    counters.filesScanned++;
    if (!r.ok) {
      counters.filesSkipped++;
      pushError(counters, `opencode db ${dbPath}: ${r.message}`);
      return;
    }
    counters.linesParsed += r.linesParsed;
    counters.linesSkipped += r.linesSkipped;
    const usage = usageBySession(r.usage);
    const chunk = r.summary as OpenCodeChunkResult;
    for (const s of chunk.sessions) {
      db.set(s.id, s);
      awaitingSearch.set(s.id, s);
      index.put({ path: `${dbPath}#${s.id}`, harness: 'opencode', size: 0, mtimeMs: s.updatedMs ?? 0, offset: 0, summary: s, usage: usage.get(s.id) ?? [], searchLater: true });
    }
  }

  /**
   * The second pass's results: each session's conversation and search mark, put with the summary its
   * first pass read, unless a scan read the session since (it then brought the conversation itself) or
   * it is gone. A failed chunk's sessions are read by the next scan, as summaries without a search mark.
   */
  function applyConversations(r: FileResult): void {
    if (!r.ok) {
      pushError(counters, `opencode db ${dbPath}: ${r.message}`);
      return;
    }
    const chunk = r.summary as OpenCodeChunkResult;
    for (const [id, mark] of Object.entries(chunk.marks)) {
      const first = awaitingSearch.get(id);
      awaitingSearch.delete(id);
      if (first === undefined || db.get(id) !== first) continue;
      const s = { ...first, search: mark };
      db.set(id, s);
      const m = chunk.messages[id];
      index.put({ path: `${dbPath}#${id}`, harness: 'opencode', size: 0, mtimeMs: s.updatedMs ?? 0, offset: 0, summary: s, ...(m ? { messages: m } : {}), searchLater: false });
    }
  }

  /** The second pass, once the first's listing is complete (`searchAfterMs` later). Never rejects. */
  async function readConversations(cold: ColdIndexing, bytes: number): Promise<void> {
    const ids = [...awaitingSearch.keys()];
    if (ids.length === 0) return;
    try {
      await new Promise((resolve) => setTimeout(resolve, cold.searchAfterMs ?? 0));
      const tasks = chunkTasks(dbPath, ids, bytes, ids.length).map((t) => ({ ...t, messages: true }));
      await cold.indexer.read(OPENCODE_COLD_KIND, tasks, (results) => {
        for (const r of results) applyConversations(r);
      });
    } catch {
      // the daemon closing: the store reads those sessions again at its next open (they have no search rows)
    } finally {
      for (const id of ids) awaitingSearch.delete(id);
    }
  }

  return {
    coldIndex(cold, onProgress) {
      if (coldRunning) return null;
      const fp = fingerprint(dbPath);
      const fresh = db.size === 0;
      const plan = planCold();
      if (!plan || plan.ids.length === 0 || plan.bytes < (cold.minBytes ?? DEFAULT_COLD_MIN_BYTES)) return null;
      const tasks = chunkTasks(dbPath, plan.ids, plan.bytes, plan.ids.length);
      const progress: IndexProgress = { harness: 'opencode', total: plan.ids.length, done: 0, bytesTotal: plan.bytes, bytesDone: 0 };
      onProgress({ ...progress });
      coldRunning = true;
      let failed = false;
      let landed = 0;
      // The store holds its writes while the first pass reads, as for the transcripts (cold-run.ts).
      const release = index.hold?.();
      return cold.indexer.read(OPENCODE_COLD_KIND, tasks, (results) => {
        for (const r of results) {
          applyChunk(r);
          failed ||= !r.ok;
          landed++;
          // Sessions read (one deleted since the plan is not; a failed chunk's are read by the next scan).
          progress.done += r.ok ? (r.summary as OpenCodeChunkResult).sessions.length : 0;
          progress.bytesDone += r.bytes;
        }
        onProgress({ ...progress });
      }).finally(() => {
        coldRunning = false;
        release?.();
        if (fresh) settleCold(fp, !failed && landed === tasks.length);
        void readConversations(cold, plan.bytes);
      });
    },
    scan() {
      scanDb();
      scanJson();
      const all = new Map(json);
      for (const [id, s] of db) all.set(id, s);
      return all;
    },
  };
}

/**
 * True when every session has been read for search, or awaits the cold index's second pass (no copy of
 * the map: this runs on every scan).
 */
function allSearched(sessions: ReadonlyMap<string, OpenCodeSessionSummary>, pending: ReadonlyMap<string, unknown>): boolean {
  for (const s of sessions.values()) if (!s.search && !pending.has(s.id)) return false;
  return true;
}

/** Size and mtime of the store and its WAL: any commit changes one of them. Null when the store is absent. */
function fingerprint(dbPath: string): string | null {
  let main: fs.Stats;
  try { main = fs.statSync(dbPath); } catch { return null; }
  if (!main.isFile()) return `notfile:${main.mtimeMs}`;
  let wal = '';
  try { const w = fs.statSync(`${dbPath}-wal`); wal = `${w.size}:${w.mtimeMs}`; } catch { /* no WAL: nobody has it open */ }
  return `${main.size}:${main.mtimeMs}|${wal}`;
}

function loadFromIndex(index: TranscriptIndex, prefix: string): Map<string, OpenCodeSessionSummary> {
  const m = new Map<string, OpenCodeSessionSummary>();
  for (const e of index.list('opencode')) {
    if (!e.path.startsWith(prefix)) continue;
    const s = e.summary as OpenCodeSessionSummary | null;
    if (s && typeof s === 'object' && typeof s.id === 'string' && typeof s.key === 'string') m.set(s.id, s);
  }
  return m;
}

const MAX_ERRORS = 20;
export function pushError(counters: { errors: string[] }, msg: string): void {
  counters.errors.push(msg);
  if (counters.errors.length > MAX_ERRORS) counters.errors.splice(0, counters.errors.length - MAX_ERRORS);
}
