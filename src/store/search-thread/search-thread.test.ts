import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../index.ts';
import type { SqliteStoreOptions } from '../index.ts';
import { searchDbPathOf } from '../search-db.ts';
import { spawnIndexWorker } from '../../discovery/index-pool/index.ts';
import { parseSearchQuery } from '../../search/index.ts';
import type { Store } from '../types.ts';
import type { TranscriptMessage } from '../../core/transcript-message.ts';
import { MusterError } from '../../errors/index.ts';

const ENTRY = join(import.meta.dirname, 'worker.ts');
/** Every batch goes to the thread (the daemon's default starts it only for a burst: see below). */
const threaded: Pick<SqliteStoreOptions, 'searchThread' | 'searchThreadMinRows'> = { searchThread: (init) => spawnIndexWorker(ENTRY, init), searchThreadMinRows: 1 };

const hits = async (store: Store, text: string): Promise<Array<[string, number]>> => {
  const r = parseSearchQuery(text, Date.now());
  if (!r.ok) throw new Error(r.message);
  return (await store.search.query(r.query, 500)).map((h) => [h.sessionId, h.position]);
};
const msg = (text: string): TranscriptMessage => ({ role: 'user', text, at: null });
const put = (store: Store, path: string, offset: number, from: number, items: TranscriptMessage[]): void =>
  store.transcriptIndex.put({ path, harness: 'claude', size: offset, mtimeMs: 1, offset, summary: {}, messages: { sessionId: path, from, items } });

function tempDir(): { path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'muster-search-thread-'));
  return { path: join(dir, 'muster.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('the search thread', () => {
  it('writes what the transcript index takes, in order; flush waits for it, and the store reads it', async () => {
    const t = tempDir();
    const lines: string[] = [];
    const store = openSqliteStore({ path: t.path, ...threaded, log: (l) => lines.push(l) });
    try {
      for (let i = 0; i < 200; i++) put(store, `/t/${i}.jsonl`, 10, 0, [msg(`osprey number${i}`), msg('kestrel')]);
      put(store, '/t/0.jsonl', 20, 5, [msg('heron')]);
      store.transcriptIndex.remove('/t/1.jsonl');
      store.transcriptIndex.flush?.();
      assert.equal(store.transcriptIndex.waiting?.(), 0);
      assert.equal((await hits(store, 'kestrel')).length, 199, 'the removed transcript left');
      assert.deepEqual(await hits(store, 'number7'), [['/t/7.jsonl', 0]]);
      assert.deepEqual(await hits(store, 'heron'), [['/t/0.jsonl', 2]], 'an append goes on after the earlier messages');
      assert.deepEqual(await store.search.stats(), { messages: 399, files: 199 });
    } finally {
      store.close();
    }
    try {
      // Closed with everything written: the next open reads nothing again.
      const again = openSqliteStore({ path: t.path, log: (l) => lines.push(l) });
      assert.equal(again.transcriptIndex.list('claude').length, 199);
      assert.equal((await hits(again, 'kestrel')).length, 199);
      again.close();
      assert.deepEqual(lines, []);
    } finally {
      t.cleanup();
    }
  });

  it('starts with the first write: a store that writes nothing has no thread', async () => {
    const t = tempDir();
    let spawned = 0;
    const count: Pick<SqliteStoreOptions, 'searchThread' | 'searchThreadMinRows'> = { searchThread: (init) => (spawned++, spawnIndexWorker(ENTRY, init)), searchThreadMinRows: 1 };
    try {
      openSqliteStore({ path: t.path, ...count }).close();
      assert.equal(spawned, 0);
      const store = openSqliteStore({ path: t.path, ...count });
      put(store, '/t/a.jsonl', 10, 0, [msg('alpha')]);
      put(store, '/t/b.jsonl', 10, 0, [msg('beta')]);
      store.close();
      assert.equal(spawned, 1);
    } finally {
      t.cleanup();
    }
  });

  it('a transcript whose search rows fell behind its index entry (a crash between the two commits) is read again', async () => {
    const t = tempDir();
    try {
      const store = openSqliteStore({ path: t.path, ...threaded });
      put(store, '/t/a.jsonl', 10, 0, [msg('alpha')]);
      put(store, '/t/b.jsonl', 10, 0, [msg('beta')]);
      store.close();
      // As if the search thread's last commit were lost: b's messages and offset are older than its entry.
      const db = new Database(searchDbPathOf(t.path));
      db.prepare("UPDATE search_files SET offset = 4 WHERE path = '/t/b.jsonl'").run();
      db.close();
      const lines: string[] = [];
      const reopened = openSqliteStore({ path: t.path, log: (l) => lines.push(l) });
      assert.deepEqual(reopened.transcriptIndex.list('claude').map((e) => e.path), ['/t/a.jsonl'], 'b will be read again whole');
      assert.deepEqual(await hits(reopened, 'alpha'), [['/t/a.jsonl', 0]]);
      assert.deepEqual(await hits(reopened, 'beta'), [], 'until it is read again');
      assert.match(lines.join('\n'), /1 transcript\(s\) will be read again/);
      reopened.close();
      // A search database deleted (to rebuild the index): every transcript is read again.
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${searchDbPathOf(t.path)}${suffix}`, { force: true });
      const rebuilt = openSqliteStore({ path: t.path });
      assert.deepEqual(rebuilt.transcriptIndex.list('claude'), []);
      rebuilt.close();
    } finally {
      t.cleanup();
    }
  });

  it('a put whose messages come later leaves the path without search rows until a read from the start brings them; closed before, it is read again', async () => {
    const t = tempDir();
    try {
      const store = openSqliteStore({ path: t.path, ...threaded });
      put(store, '/t/a.jsonl', 10, 0, [msg('alpha')]);
      put(store, '/t/b.jsonl', 10, 0, [msg('stale')]);
      // b was rewritten and a cold index read it again without its messages.
      store.transcriptIndex.put({ path: '/t/b.jsonl', harness: 'claude', size: 20, mtimeMs: 2, offset: 20, summary: {}, searchLater: true });
      put(store, '/t/b.jsonl', 30, 20, [msg('between')]); // a watch event's read meanwhile: its messages wait for the read from the start
      store.transcriptIndex.put({ path: '/t/c.jsonl', harness: 'claude', size: 10, mtimeMs: 1, offset: 10, summary: {}, searchLater: true });
      // d: its later read has no messages to give (no session): it says so, and is level.
      store.transcriptIndex.put({ path: '/t/d.jsonl', harness: 'claude', size: 10, mtimeMs: 1, offset: 10, summary: {}, searchLater: true });
      assert.equal(store.transcriptIndex.searchBehind?.(), 3);
      store.transcriptIndex.put({ path: '/t/d.jsonl', harness: 'claude', size: 10, mtimeMs: 1, offset: 10, summary: {}, searchLater: false });
      assert.equal(store.transcriptIndex.searchBehind?.(), 2);
      put(store, '/t/c.jsonl', 10, 0, [msg('gamma')]);
      put(store, '/t/c.jsonl', 20, 10, [msg('delta')]);
      assert.equal(store.transcriptIndex.searchBehind?.(), 1);
      store.transcriptIndex.flush?.();
      assert.deepEqual(await hits(store, 'stale'), [], "what b had is dropped");
      assert.deepEqual(await hits(store, 'between'), []);
      assert.deepEqual(await hits(store, 'gamma'), [['/t/c.jsonl', 0]], 'the read from the start brings c level');
      assert.deepEqual(await hits(store, 'delta'), [['/t/c.jsonl', 1]], 'and the next read appends');
      store.close();
      const lines: string[] = [];
      const reopened = openSqliteStore({ path: t.path, log: (l) => lines.push(l) });
      assert.deepEqual(reopened.transcriptIndex.list('claude').map((e) => e.path).sort(), ['/t/a.jsonl', '/t/c.jsonl', '/t/d.jsonl'], 'b, still behind, will be read again whole');
      assert.match(lines.join('\n'), /1 transcript\(s\) will be read again/);
      reopened.close();
    } finally {
      t.cleanup();
    }
  });

  it('a thread that cannot start is reported, and the store goes on without search writes', async () => {
    const t = tempDir();
    const lines: string[] = [];
    try {
      const store = openSqliteStore({ path: t.path, searchThread: (init) => spawnIndexWorker(join(import.meta.dirname, 'no-such-entry.ts'), init), searchThreadMinRows: 1, log: (l) => lines.push(l) });
      put(store, '/t/a.jsonl', 10, 0, [msg('alpha')]);
      await new Promise((r) => setTimeout(r, 500));
      put(store, '/t/b.jsonl', 10, 0, [msg('beta')]); // after a failure nothing more is written, not even here
      store.transcriptIndex.flush?.();
      assert.equal(store.transcriptIndex.list('claude').length, 2, 'the index entries are written');
      store.close();
      assert.match(lines.join('\n'), /the search index's thread stopped/);
      // The next open (without a thread) sees the transcripts' messages missing and reads them again.
      const reopened = openSqliteStore({ path: t.path });
      assert.equal(reopened.transcriptIndex.list('claude').length, 0);
      reopened.close();
    } finally {
      t.cleanup();
    }
  });
});

describe('the search thread, for bursts only', () => {
  it('a few messages are written on the store\'s connection; a burst starts the thread as it comes, which closes once idle, and the writes after it come back here, in order', async () => {
    const t = tempDir();
    let spawned = 0;
    const store = openSqliteStore({ path: t.path, searchThread: (init) => (spawned++, spawnIndexWorker(ENTRY, init)), searchThreadMinRows: 100, searchThreadIdleMs: 200 });
    try {
      put(store, '/t/a.jsonl', 10, 0, [msg('alpha'), msg('gannet')]);
      store.transcriptIndex.flush?.();
      assert.equal(spawned, 0, 'a few messages: no thread');
      assert.deepEqual(await hits(store, 'gannet'), [['/t/a.jsonl', 1]]);
      // A burst: 150 messages put in one go start the thread once 100 are gathered, before the index commits.
      for (let i = 0; i < 75; i++) put(store, `/t/b${i}.jsonl`, 10, 0, [msg(`burst${i}`), msg('gannet')]);
      assert.equal(spawned, 1);
      store.transcriptIndex.flush?.();
      assert.equal(store.transcriptIndex.waiting?.(), 0, 'flush waited for the thread');
      assert.equal((await hits(store, 'gannet')).length, 76);
      // While it lives it takes every write (an append after the burst's messages keeps its place)...
      put(store, '/t/b3.jsonl', 20, 10, [msg('petrel')]);
      store.transcriptIndex.flush?.();
      assert.deepEqual(await hits(store, 'petrel'), [['/t/b3.jsonl', 2]]);
      // ...and once idle it closes; what comes next is written here again, after what the thread wrote.
      await new Promise((r) => setTimeout(r, 600));
      put(store, '/t/b3.jsonl', 30, 20, [msg('skua')]);
      put(store, '/t/c.jsonl', 10, 0, [msg('gannet')]);
      store.transcriptIndex.flush?.();
      assert.equal(spawned, 1, 'no new thread for a few messages');
      assert.deepEqual(await hits(store, 'skua'), [['/t/b3.jsonl', 3]]);
      assert.equal((await hits(store, 'gannet')).length, 77);
      // A second burst starts a second thread.
      for (let i = 0; i < 120; i++) put(store, `/t/d${i}.jsonl`, 10, 0, [msg('fulmar')]);
      store.transcriptIndex.flush?.();
      assert.equal(spawned, 2);
      assert.equal((await hits(store, 'fulmar')).length, 120);
    } finally {
      store.close();
    }
    try {
      const lines: string[] = [];
      const again = openSqliteStore({ path: t.path, log: (l) => lines.push(l) });
      assert.equal(again.transcriptIndex.list('claude').length, 1 + 75 + 1 + 120, 'nothing is read again');
      assert.deepEqual(await again.search.stats(), { messages: 2 + 150 + 2 + 1 + 120, files: 197 });
      again.close();
      assert.deepEqual(lines, []);
    } finally {
      t.cleanup();
    }
  });
});

describe('the search thread, for a first start\'s drain', () => {
  it('chunks each under the threshold start the thread: what is still to come in the drain counts', async () => {
    const t = tempDir();
    let spawned = 0;
    // busy (the default): the drain writes chunks of 2,048 rows, usage records included — 66 puts of
    // 31 rows, 66 messages, each; 330 messages in all against a threshold of 100.
    const store = openSqliteStore({ path: t.path, searchThread: (init) => (spawned++, spawnIndexWorker(ENTRY, init)), searchThreadMinRows: 100, indexFlushIntervalMs: 500 });
    try {
      const release = store.transcriptIndex.hold?.();
      assert.ok(release);
      for (let i = 0; i < 330; i++) {
        const sessionId = `/t/${i}.jsonl`;
        const usage = Array.from({ length: 30 }, (_, k) => ({
          harness: 'claude' as const, key: `${i}:${k}`, sessionId, rank: 0 as const, at: 1_700_000_000_000 + k, model: 'm',
          tokens: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, costUsd: null,
        }));
        store.transcriptIndex.put({ path: sessionId, harness: 'claude', size: 10, mtimeMs: 1, offset: 10, summary: {}, usage, messages: { sessionId, from: 0, items: [msg(`shearwater${i}`)] } });
      }
      release();
      const deadline = Date.now() + 10_000;
      while ((store.transcriptIndex.waiting?.() ?? 0) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(spawned, 1, 'the chunks\' messages were gathered into one burst for the thread, not written one chunk at a time on the store\'s connection');
      assert.equal((await hits(store, 'shearwater*')).length, 330);
    } finally {
      store.close();
      t.cleanup();
    }
  });
});

describe('a search database that cannot be opened', () => {
  it('is a store_error naming the file, and the store is not left open', () => {
    const t = tempDir();
    try {
      mkdirSync(searchDbPathOf(t.path)); // a directory where the file should be
      assert.throws(() => openSqliteStore({ path: t.path }), (e: unknown) => e instanceof MusterError && e.code === 'store_error' && e.message.includes('muster-search.db'));
    } finally {
      t.cleanup();
    }
  });
});
