import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryTranscriptIndex } from '../contract.ts';
import { startColdRun } from './cold-run.ts';
import type { ColdIndexer, FileResult, FileTask } from './types.ts';
import { record } from '../../usage/usage-fixtures.test-support.ts';

interface Summary {
  lines: number;
}

/** An indexer that folds in this thread, as the daemon's thread does (pool.ts): into the task's summary as handed over. */
function inThread(fail: boolean): ColdIndexer & { seen: FileTask[] } {
  const seen: FileTask[] = [];
  return {
    seen,
    async read(_kind, tasks, onBatch) {
      const results = tasks.map((t): FileResult => {
        seen.push(t);
        (t.summary as Summary).lines += 10; // the fold works on the summary in place
        if (fail) return { ok: false, path: t.path, code: 'EIO', message: 'read failed midway', bytes: t.bytes };
        return { ok: true, path: t.path, size: 2000, mtimeMs: 2, offset: 2000, summary: t.summary, usage: [], linesParsed: 10, linesSkipped: 0, bytes: t.bytes };
      });
      onBatch(results);
    },
    async close() {},
  };
}

for (const fail of [false, true]) {
  test(`a resumed file is folded into a copy: the index's summary is untouched until its result is put${fail ? ', and for good when the read fails' : ''}`, async () => {
    const index = createMemoryTranscriptIndex();
    const held: Summary = { lines: 5 };
    index.put({ path: '/t.jsonl', harness: 'claude', size: 1000, mtimeMs: 1, offset: 1000, summary: held });
    const indexer = inThread(fail);
    const run = startColdRun({
      harness: 'claude', kind: 'claude', index, cold: { indexer, minBytes: 0 }, files: [{ path: '/t.jsonl', size: 2000, mtimeMs: 2 }],
      isSummary: (x) => typeof (x as Summary | null)?.lines === 'number', onProgress: () => {},
    });
    assert.ok(run);
    await run.done;
    assert.equal(indexer.seen.length, 1);
    assert.equal(indexer.seen[0]?.from, 1000);
    assert.deepEqual(held, { lines: 5 });
    assert.deepEqual(index.get('/t.jsonl')?.summary, fail ? { lines: 5 } : { lines: 15 });
  });
}

/** Files as a fold would find them: each 100 bytes is one line, one message and one usage record. */
function onDisk(sizes: Record<string, number>, onRead?: (t: FileTask, index: number) => void): ColdIndexer & { seen: FileTask[]; disk: Map<string, number> } {
  const seen: FileTask[] = [];
  const disk = new Map(Object.entries(sizes));
  return {
    seen,
    disk,
    async read(_kind, tasks, onBatch) {
      await new Promise((r) => setImmediate(r));
      onBatch(tasks.map((t): FileResult => {
        onRead?.(t, seen.length);
        seen.push(t);
        const size = disk.get(t.path) ?? 0;
        const lines = Array.from({ length: (size - t.from) / 100 }, (_, i) => t.from / 100 + i);
        return {
          ok: true, path: t.path, size, mtimeMs: size, offset: size, summary: { lines: ((t.summary as Summary | null)?.lines ?? 0) + lines.length },
          usage: t.usage === false ? [] : lines.map((i) => record({ iso: '2026-12-01T10:00:00Z', key: `${t.path}:${i}` })),
          ...(t.messages && !t.path.startsWith('/nosession') ? { messages: { sessionId: t.path, from: t.from, items: lines.map((i) => ({ role: 'user' as const, text: `line ${i}`, at: null })) } } : {}),
          linesParsed: lines.length, linesSkipped: 0, bytes: t.bytes,
        };
      }));
    },
    async close() {},
  };
}

const isSummary = (x: unknown): boolean => typeof (x as Summary | null)?.lines === 'number';
const texts = (index: ReturnType<typeof createMemoryTranscriptIndex>, path: string): string[] => index.messages(path).map((m) => m.text);

test('with messages, a file read from its start comes without them and its usage records; once the listing is complete it is read again for both', async () => {
  const index = createMemoryTranscriptIndex();
  index.put({ path: '/old.jsonl', harness: 'claude', size: 200, mtimeMs: 200, offset: 200, summary: { lines: 2 }, messages: { sessionId: '/old.jsonl', from: 0, items: [{ role: 'user', text: 'line 0', at: null }, { role: 'user', text: 'line 1', at: null }] } });
  const indexer = onDisk({ '/a.jsonl': 300, '/b.jsonl': 200, '/old.jsonl': 400 });
  const run = startColdRun({
    harness: 'claude', kind: 'claude', index, cold: { indexer, minBytes: 0, searchAfterMs: 20 }, messages: true, isSummary, onProgress: () => {},
    files: [{ path: '/a.jsonl', size: 300, mtimeMs: 300 }, { path: '/b.jsonl', size: 200, mtimeMs: 200 }, { path: '/old.jsonl', size: 400, mtimeMs: 400 }],
  });
  assert.ok(run);
  await run.done;
  assert.deepEqual(indexer.seen.map((t) => [t.path, t.from, t.messages ?? false, t.usage ?? true]), [['/a.jsonl', 0, false, false], ['/b.jsonl', 0, false, false], ['/old.jsonl', 200, true, true]], 'a resumed file brings both at once');
  assert.deepEqual(index.get('/a.jsonl')?.summary, { lines: 3 }, 'the listing has what it needs');
  assert.deepEqual(index.usage().map((u) => u.key), ['/old.jsonl:2', '/old.jsonl:3']);
  assert.equal(index.searchBehind?.(), 2);
  assert.deepEqual(texts(index, '/a.jsonl'), []);
  assert.deepEqual(texts(index, '/old.jsonl'), ['line 0', 'line 1', 'line 2', 'line 3']);
  const summaryOfA = index.get('/a.jsonl')?.summary;
  await run.searched;
  assert.deepEqual(indexer.seen.slice(3).map((t) => [t.path, t.from, t.messages ?? false, t.usage ?? true]), [['/a.jsonl', 0, true, true], ['/b.jsonl', 0, true, true]]);
  assert.equal(index.searchBehind?.(), 0);
  assert.deepEqual(texts(index, '/a.jsonl'), ['line 0', 'line 1', 'line 2']);
  assert.deepEqual(texts(index, '/b.jsonl'), ['line 0', 'line 1']);
  assert.equal(index.get('/a.jsonl')?.summary, summaryOfA, 'the same bytes: the summary the index holds is kept');
  assert.deepEqual(index.usage().map((u) => u.key).sort(), ['/a.jsonl:0', '/a.jsonl:1', '/a.jsonl:2', '/b.jsonl:0', '/b.jsonl:1', '/old.jsonl:2', '/old.jsonl:3'], 'each usage record once');
});

test('a file another read got further in meanwhile is read again for its messages, and what that read brought is there', async () => {
  const index = createMemoryTranscriptIndex();
  let watched = false;
  const indexer = onDisk({ '/a.jsonl': 200 }, (t) => {
    // The session writes while the second pass reads it: a watch event's read puts the newer bytes first.
    if (t.messages && !watched) {
      watched = true;
      index.put({ path: t.path, harness: 'claude', size: 300, mtimeMs: 300, offset: 300, summary: { lines: 3 }, messages: { sessionId: t.path, from: 200, items: [{ role: 'user', text: 'line 2', at: null }] } });
    }
  });
  const run = startColdRun({ harness: 'claude', kind: 'claude', index, cold: { indexer, minBytes: 0 }, messages: true, isSummary, onProgress: () => {}, files: [{ path: '/a.jsonl', size: 200, mtimeMs: 200 }] });
  assert.ok(run);
  await run.done;
  const read = indexer.read.bind(indexer);
  indexer.read = async (kind, tasks, onBatch) => {
    await read(kind, tasks, onBatch);
    indexer.disk.set('/a.jsonl', 300); // what the watch read saw is on disk for the next read
  };
  indexer.disk.set('/a.jsonl', 200); // the second pass's first read sees the older bytes
  await run.searched;
  assert.deepEqual(indexer.seen.map((t) => [t.from, t.messages ?? false, t.bytes]), [[0, false, 200], [0, true, 200], [0, true, 300]]);
  assert.deepEqual(texts(index, '/a.jsonl'), ['line 0', 'line 1', 'line 2']);
  assert.equal(index.get('/a.jsonl')?.offset, 300);
  assert.equal(index.searchBehind?.(), 0);
});

test('without messages (search off) nothing is read twice, and the one read brings the usage records', async () => {
  const index = createMemoryTranscriptIndex();
  const indexer = onDisk({ '/a.jsonl': 200 });
  const run = startColdRun({ harness: 'claude', kind: 'claude', index, cold: { indexer, minBytes: 0 }, isSummary, onProgress: () => {}, files: [{ path: '/a.jsonl', size: 200, mtimeMs: 200 }] });
  assert.ok(run);
  await run.searched;
  assert.equal(indexer.seen.length, 1);
  assert.equal(indexer.seen[0]?.usage, undefined);
  assert.equal(index.usage().length, 2);
  assert.equal(index.searchBehind?.(), 0);
});

test('a file the second pass gives no messages for (no session to index them under) is brought level, with its usage records', async () => {
  const index = createMemoryTranscriptIndex();
  const indexer = onDisk({ '/nosession.jsonl': 200 });
  const run = startColdRun({ harness: 'codex', kind: 'codex', index, cold: { indexer, minBytes: 0 }, messages: true, isSummary, onProgress: () => {}, files: [{ path: '/nosession.jsonl', size: 200, mtimeMs: 200 }] });
  assert.ok(run);
  await run.done;
  assert.equal(index.searchBehind?.(), 1);
  await run.searched;
  assert.equal(indexer.seen.length, 2);
  assert.equal(index.searchBehind?.(), 0);
  assert.equal(index.usage().length, 2);
});
