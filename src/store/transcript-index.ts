/**
 * The transcript index in SQLite, cached in memory (loaded with one query on first use, so a warm start
 * with thousands of files does one read instead of one per file) with writes batched into transactions
 * (a cold scan's thousands of puts cost a few commits, not thousands): the first write after a quiet
 * spell commits on the next tick, later ones once `intervalMs` has passed since the last commit. Gets
 * and lists answer from memory meanwhile. Each put's usage records commit in the same transaction as
 * its entry, in put order, so a crash never leaves an offset past what was stored; losing the last
 * interval of progress only means re-reading those bytes. Its messages go to the search sink in put
 * order: written in that transaction too, or handed to the search thread (search-thread/), whose
 * database records the offset it wrote to (a crash between the two is repaired at the next open:
 * search-db.ts).
 *
 * A cold run holds the writes (`hold()`) until it has folded every file: the daemon's thread then only
 * folds results into memory, so the listing is complete sooner, and the writes go out right after (or
 * `holdLingerMs` after, the daemon's choice) in chunks, one transaction each: small ones while requests
 * come (`busy()`), larger ones while none do.
 */
import type Database from 'better-sqlite3';
import type { Harness } from '../core/session.ts';
import { isSearchBehind } from '../discovery/contract.ts';
import type { TranscriptIndex, TranscriptIndexEntry } from '../discovery/contract.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import type { UsageDelta } from '../usage/types.ts';
import type { SqliteUsage } from './usage.ts';
import type { SearchOp } from './search.ts';

/** Where the index's search ops go: written in its transaction, or handed to the search thread. */
export interface SearchSink {
  /**
   * Takes ops in order: a chunk's, first inside its transaction; or, when `eager`, each as it is put
   * (unless a hold keeps the writes, or earlier ops still wait), so a thread writes them meanwhile.
   * `later`: messages still waiting for the chunks after this one (a drain after a hold), so a burst
   * that comes chunk by chunk is known as one.
   */
  write(ops: readonly SearchOp[], later?: number): void;
  readonly eager: boolean;
  /** Messages taken and not written yet. */
  waiting(): number;
  /** Returns once everything taken is written. */
  flush(): void;
}

/**
 * The daemon's index commits are spaced this far apart while writes keep coming: a commit costs about as
 * much as the writes of a cold index's batch (WAL pages of every B-tree the batch touched, FTS5's segment
 * flush), and a cold index on the worker threads hands over a batch every few ms...
 */
export const DEFAULT_INDEX_FLUSH_INTERVAL_MS = 500;

/**
 * ...but a commit never gathers more than about this many usage records and messages: its write holds
 * the daemon's thread (FTS5 indexes about 10 MB of text a second here), and a board waiting on a
 * half-second commit is worse than a few more commits. Measured on a 1.4 GB Claude corpus through the
 * worker pool, three runs each way alternating: the daemon thread's CPU 1.39-1.51 s → 1.02-1.18 s
 * (discovery alone) and 3.16-3.40 → 3.01-3.14 s (with search); its longest stall 95-136 → 134-174 ms and
 * 131-158 → 213-279 ms. Without this cap (500 ms alone) the longest stall with search was 921 ms.
 */
const MAX_PENDING_ROWS = 8192;

/**
 * After a hold, the writes go out in chunks of about this many rows, this far apart: the listing and the
 * requests that follow a cold run (the hub's re-list, `muster ls`) get the thread between two. Measured
 * on the daemon over a 1.4 GB Claude corpus (spawn of `up` to the exit of `ls`): chunks of 8,192 rows
 * back to back kept `ls` waiting 1.05-1.16 s behind them; 2,048 rows with 2 ms between, 0.28-0.38 s.
 */
const DRAIN_CHUNK_ROWS = 2048;
const DRAIN_GAP_MS = 2;
/**
 * ...while requests come (`busy()`). While none do, they are as large as a commit without a hold: each
 * commit also writes FTS5's gathered terms as one more segment. On that corpus the daemon's last search
 * row came 6.2-6.4 s after the spawn of `up` with 2,048-row chunks, 5.0 s with 8,192 and 4.2-4.6 s with
 * 32,768 (two runs each); a chunk holds the thread as long as such a commit (the longest stall of a
 * first start with search went from 222-282 ms to 354 ms with 16,384-row chunks). A request that lands
 * during one waits for it, and the chunks after it are small.
 */
const DRAIN_IDLE_CHUNK_ROWS = MAX_PENDING_ROWS;

/**
 * What a hold keeps at most: rows, and characters of message text (a row of tool output may hold 32 KiB).
 * Past either, chunks are written as without a hold, so memory stays bounded. A 1.4 GB Claude history
 * with search brings about 182,000 rows (60,562 usage records, 121,124 messages) and 22 MB of text: under
 * a bound of 131,072 rows the last 50,000 were written while the workers still read, in the interval's
 * chunks, and the first start's reading took 2.27-2.55 s against 1.74-1.83 s under this bound, its last
 * write 3.43-3.72 s against 3.17-3.33 s (three runs each way alternating, worker threads, search on; the
 * process's peak RSS 430 MB either way).
 */
export const DEFAULT_HOLD_MAX_ROWS = 262_144;
export const DEFAULT_HOLD_MAX_CHARS = 32 * 1024 * 1024;

interface IndexRow { path: string; harness: string; size: number; mtime_ms: number; offset: number; summary: string }

function toEntry(r: IndexRow): TranscriptIndexEntry {
  return { path: r.path, harness: r.harness as Harness, size: r.size, mtimeMs: r.mtime_ms, offset: r.offset, summary: JSON.parse(r.summary) as unknown };
}

/** A put (entry) or a remove (null), waiting for its commit. */
interface Pending {
  path: string;
  entry: TranscriptIndexEntry | null;
  records: readonly UsageRecord[] | undefined;
  /** Its search op, until it goes to the search sink (null: it went at once, to the search thread). */
  op: SearchOp | null;
  /** Usage records and messages it brings (those of `op` while it waits). */
  rows: number;
  /** Messages of its op. */
  messages: number;
  /** Characters of its messages' text while they wait. */
  chars: number;
}

export interface SqliteTranscriptIndexOptions {
  usage: SqliteUsage;
  search: SearchSink;
  toolOutput(): boolean;
  intervalMs: number;
  /** Default: DEFAULT_HOLD_MAX_ROWS. */
  holdMaxRows?: number;
  /** Default: DEFAULT_HOLD_MAX_CHARS. */
  holdMaxChars?: number;
  /** True while requests want the thread (the daemon: one came in the last second). Default: always. */
  busy?(): boolean;
  /**
   * A hold keeps the writes this much longer after its release, ms (its bounds still apply, and a flush
   * still writes everything). Default: 0.
   */
  holdLingerMs?: number;
}

export function createSqliteTranscriptIndex(db: Database.Database, o: SqliteTranscriptIndexOptions): TranscriptIndex & { flush(): void; hold(): () => void; waiting(): number } {
  const put = db.prepare('INSERT OR REPLACE INTO transcript_index(path, harness, size, mtime_ms, offset, summary) VALUES (?, ?, ?, ?, ?, ?)');
  const listOf = db.prepare<[string], IndexRow>('SELECT * FROM transcript_index WHERE harness = ?');
  const del = db.prepare('DELETE FROM transcript_index WHERE path = ?');
  const holdMax = o.holdMaxRows ?? DEFAULT_HOLD_MAX_ROWS;
  const holdMaxChars = o.holdMaxChars ?? DEFAULT_HOLD_MAX_CHARS;
  const busy = o.busy ?? (() => true);
  const lingerMs = o.holdLingerMs ?? 0;
  let byPath: Map<string, TranscriptIndexEntry> | null = null;
  /** Puts and removes since the last commit, in order (a rewrite's reset must precede what follows it). */
  let queue: Pending[] = [];
  let scheduled = false;
  let timer: NodeJS.Timeout | null = null;
  let lastFlush = -Infinity;
  /** Usage records and messages waiting: past MAX_PENDING_ROWS they are written on the next tick. */
  let pendingRows = 0;
  /** Characters of message text waiting (a hold's other bound). */
  let pendingChars = 0;
  let holds = 0;
  /** Paths put with searchLater whose messages have not come yet (isSearchBehind). */
  const behind = new Set<string>();
  /** Ops in the queue that have not gone to the search sink (an eager sink takes none while any wait). */
  let unposted = 0;
  /** Messages of those ops. */
  let unpostedMessages = 0;
  /** Released with writes waiting: chunk after chunk until none are left, whatever the interval. */
  let draining = false;

  const load = (): Map<string, TranscriptIndexEntry> => {
    if (byPath) return byPath;
    byPath = new Map();
    for (const r of db.prepare<[], IndexRow>('SELECT * FROM transcript_index').iterate()) byPath.set(r.path, toEntry(r));
    return byPath;
  };

  /** Writes the oldest waiting puts and removes in order, in one transaction: all of them, or about `maxRows` rows. */
  const write = (maxRows: number): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    scheduled = false;
    if (queue.length === 0) {
      draining = false;
      return;
    }
    let n = 0;
    let rows = 0;
    let chars = 0;
    while (n < queue.length && (n === 0 || rows + (queue[n] as Pending).rows <= maxRows)) {
      const p = queue[n++] as Pending;
      rows += p.rows;
      chars += p.chars;
    }
    const chunk = queue.slice(0, n);
    queue = queue.slice(n);
    pendingRows -= rows;
    pendingChars -= chars;
    const deltas: UsageDelta[] = [];
    // Without the fsync of synchronous=FULL (5 ms and more each on a busy disk, which a cold index
    // of thousands of files pays per batch): a crash may lose the last index writes, which only means
    // reading those bytes again, and the next FULL commit (a page, a goal) makes them durable with it.
    db.pragma('synchronous = NORMAL');
    try {
      const ops: SearchOp[] = [];
      for (const p of chunk) {
        if (!p.op) continue;
        ops.push(p.op);
        unpostedMessages -= p.messages;
      }
      unposted -= ops.length;
      db.transaction(() => {
        // First: a search thread then writes the messages while this thread writes the rest.
        if (ops.length > 0) o.search.write(ops, draining ? unpostedMessages : 0);
        for (const p of chunk) {
          if (p.entry) {
            if (p.records) for (const d of o.usage.write(p.records)) deltas.push(d);
            const e = p.entry;
            put.run(e.path, e.harness, e.size, e.mtimeMs, e.offset, JSON.stringify(e.summary ?? null));
          } else del.run(p.path);
        }
      })();
    } finally {
      db.pragma('synchronous = FULL');
      lastFlush = performance.now();
      if (queue.length === 0) draining = false;
      else schedule();
    }
    o.usage.notify(deltas);
  };
  const held = (): boolean => holds > 0 && pendingRows < holdMax && pendingChars < holdMaxChars;
  const tick = (): void => {
    if (held()) {
      scheduled = false;
      timer = null;
      return;
    }
    write(!draining ? MAX_PENDING_ROWS : busy() ? DRAIN_CHUNK_ROWS : DRAIN_IDLE_CHUNK_ROWS);
  };
  const schedule = (): void => {
    if (held()) return;
    const now = draining || pendingRows >= MAX_PENDING_ROWS;
    if (scheduled && !(now && timer)) return;
    if (timer) clearTimeout(timer);
    timer = null;
    scheduled = true;
    const wait = now ? 0 : lastFlush + o.intervalMs - performance.now();
    if (wait > 0) timer = setTimeout(tick, wait);
    else if (draining) timer = setTimeout(tick, DRAIN_GAP_MS);
    else setImmediate(tick);
  };
  const enqueue = (p: Pending): void => {
    if (p.op && o.search.eager && holds === 0 && unposted === 0) {
      o.search.write([p.op]);
      p.op = null;
      p.rows -= p.messages;
      p.chars = 0;
    } else if (p.op) {
      unposted++;
      unpostedMessages += p.messages;
    }
    queue.push(p);
    pendingRows += p.rows;
    pendingChars += p.chars;
    schedule();
  };
  return {
    get: (path) => load().get(path),
    put(e) {
      const { usage: records, messages: read, searchLater, ...entry } = e;
      load().set(entry.path, entry);
      // Behind: search keeps no row for the path (repairSearch reads it again after a crash) until a put
      // brings its messages from the start.
      const later = isSearchBehind(behind, entry.path, searchLater, read);
      const messages = later ? undefined : read;
      let chars = 0;
      if (messages) for (const m of messages.items) chars += m.text.length;
      const op: SearchOp = later ? { kind: 'forget', path: entry.path } : { kind: 'put', path: entry.path, harness: entry.harness, offset: entry.offset, messages };
      const n = messages?.items.length ?? 0;
      enqueue({ path: entry.path, entry, records, op, rows: (records?.length ?? 0) + n, messages: n, chars });
    },
    remove(path) {
      load().delete(path);
      behind.delete(path);
      enqueue({ path, entry: null, records: undefined, op: { kind: 'forget', path }, rows: 0, messages: 0, chars: 0 });
    },
    // Before the first get/put nothing is cached, so only that harness's rows are read: a source that
    // lists its entries while it is being created does not load (and parse) every other harness's.
    list: (harness) => (byPath ? [...byPath.values()].filter((e) => e.harness === harness) : listOf.all(harness).map(toEntry)),
    wantsToolOutput: o.toolOutput,
    flush: () => {
      write(Infinity);
      o.search.flush();
    },
    waiting: () => pendingRows + o.search.waiting(),
    searchBehind: () => behind.size,
    hold() {
      holds++;
      let released = false;
      const end = (): void => {
        holds--;
        if (holds === 0 && queue.length > 0) {
          draining = true;
          schedule();
        }
      };
      return () => {
        if (released) return;
        released = true;
        if (lingerMs > 0) setTimeout(end, lingerMs).unref();
        else end();
      };
    },
  };
}
