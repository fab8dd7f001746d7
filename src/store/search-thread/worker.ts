/**
 * Entry of the search thread (built as its own file, dist/search-writer.js): the only writer of the
 * search database. It takes the store's batches of search ops in order and commits whatever has
 * arrived as one transaction, then publishes the last batch's number in the shared signal.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { sqliteAddon } from '../../discovery/regular-file/sqlite-files.ts';
import { SEARCH_THREAD_NAME, nameThisThread } from '../../discovery/index-pool/thread-name.ts';
import { createSearchWriter } from '../search.ts';
import type { SearchThreadInit, SearchThreadMessage } from './protocol.ts';
import { SIGNAL_STATE, SIGNAL_WRITTEN, STATE_CLOSED, STATE_FAILED } from './protocol.ts';

/**
 * Small batches are gathered for this long after the last commit (the first after a quiet spell goes
 * at once): each commit writes FTS5's gathered terms as one more segment, merged later, and a scan
 * that reads transcripts in the daemon's thread hands them over one at a time...
 */
const COMMIT_INTERVAL_MS = 250;
/**
 * ...but this many messages commit at once: waiting would leave the thread idle while the store's
 * chunks after a first start come in (with a 1 s interval and no such bound, the writes after the
 * reading of a 1.4 GB corpus took 2.1-2.4 s against 1.4-1.7 s with 250 ms; a scratch script, three
 * runs each).
 */
const COMMIT_AT_ROWS = 4096;

nameThisThread(SEARCH_THREAD_NAME);
const init = workerData as SearchThreadInit;
const signal = new Int32Array(init.signal);
const port = parentPort;

/** Publishes the thread's end (closed or failed) and lets the thread exit. */
const finish = (state: number, error?: unknown): void => {
  Atomics.store(signal, SIGNAL_STATE, state);
  Atomics.notify(signal, SIGNAL_WRITTEN);
  if (error !== undefined) port?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  port?.close();
};

try {
  const db = new Database(init.path, { nativeBinding: sqliteAddon() });
  db.pragma('journal_mode = WAL');
  // The index can be rebuilt from the transcripts: a commit lost to a power cut leaves an offset the
  // store's next open sees differ (search-db.ts), and that transcript is read again.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const writer = createSearchWriter(db, 'main');
  let queue: SearchThreadMessage[] = [];
  /** Messages in the queue. */
  let queued = 0;
  let scheduled = false;
  let lastCommit = -Infinity;
  const drain = (): void => {
    scheduled = false;
    lastCommit = performance.now();
    const batch = queue;
    queue = [];
    queued = 0;
    let last = -1;
    let close = false;
    try {
      db.transaction(() => {
        for (const m of batch) {
          if (m.op === 'close') close = true;
          else {
            writer.apply(m.ops, m.withOutput);
            last = m.seq;
          }
        }
      })();
    } catch (e) {
      db.close();
      finish(STATE_FAILED, e);
      return;
    }
    if (last >= 0) {
      Atomics.store(signal, SIGNAL_WRITTEN, last);
      Atomics.notify(signal, SIGNAL_WRITTEN);
    }
    if (close) {
      db.close();
      finish(STATE_CLOSED);
    }
  };
  let timer: NodeJS.Timeout | null = null;
  port?.on('message', (m: SearchThreadMessage) => {
    queue.push(m);
    if (m.op === 'ops') queued += m.rows;
    const now = m.op === 'close' || queued >= COMMIT_AT_ROWS;
    if (now && timer) {
      clearTimeout(timer);
      timer = null;
      scheduled = false;
    }
    if (scheduled) return;
    scheduled = true;
    const wait = now ? 0 : lastCommit + COMMIT_INTERVAL_MS - performance.now();
    // At once after a quiet spell, with the messages that arrived with this one; else at the interval.
    if (wait > 0) timer = setTimeout(() => {
      timer = null;
      drain();
    }, wait);
    else setImmediate(drain);
  });
} catch (e) {
  finish(STATE_FAILED, e);
}
