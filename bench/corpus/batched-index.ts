/**
 * A prototype of the fix the cold-index figures argue for: the store's transcript index writes each
 * put() in its own autocommit transaction, and with synchronous=FULL every one is an fsync of the WAL
 * (several ms each), so indexing N files costs N fsyncs. This index keeps puts in memory during a
 * list() and writes them all in ONE transaction afterwards (flush()), against the same table of the
 * same database file the daemon uses (the schema is created by the real store first).
 */
import Database from 'better-sqlite3';
import type { TranscriptIndex, TranscriptIndexEntry } from '../../src/discovery/contract.ts';
import { createMemoryTranscriptIndex } from '../../src/discovery/contract.ts';
import { openSqliteStore } from '../../src/store/index.ts';

export interface DeferredIndex {
  index: TranscriptIndex;
  /** Writes every pending put in one transaction; returns how long it took, ms. */
  flush(): number;
  close(): void;
}

export function createDeferredSqliteIndex(dbPath: string): DeferredIndex {
  openSqliteStore({ path: dbPath }).close(); // runs the real migrations and pragmas
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL'); // same durability as the store: the gain is from batching alone
  const mem = createMemoryTranscriptIndex();
  const pending = new Map<string, TranscriptIndexEntry>();
  const put = db.prepare('INSERT OR REPLACE INTO transcript_index(path, harness, size, mtime_ms, offset, summary) VALUES (?, ?, ?, ?, ?, ?)');
  const writeAll = db.transaction((entries: TranscriptIndexEntry[]) => {
    for (const e of entries) put.run(e.path, e.harness, e.size, e.mtimeMs, e.offset, JSON.stringify(e.summary ?? null));
  });
  return {
    index: {
      get: (p) => mem.get(p),
      put: (e) => { mem.put(e); pending.set(e.path, e); },
      remove: (p) => { mem.remove(p); pending.delete(p); },
      list: (h) => mem.list(h),
    },
    flush() {
      const t0 = performance.now();
      writeAll([...pending.values()]);
      pending.clear();
      return performance.now() - t0;
    },
    close: () => db.close(),
  };
}
