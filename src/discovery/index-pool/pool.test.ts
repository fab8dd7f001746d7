import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createColdIndexer, spawnIndexWorker, toBatches } from './index.ts';
import type { FileResult, FileTask, FoldRegistry } from './index.ts';

/** A fold that "reads" a file by its name: enough to follow tasks through the indexer. */
const folds: FoldRegistry = {
  echo: (t) => ({ ok: true, path: t.path, size: t.bytes, mtimeMs: 1, offset: t.bytes, summary: { from: t.from }, usage: [], linesParsed: 1, linesSkipped: 0, bytes: t.bytes }),
};

const tasks = (n: number, bytes = 10): FileTask[] => Array.from({ length: n }, (_, i) => ({ path: `/f/${i}`, from: 0, summary: null, bytes }));

test('batches keep the order and hold about batchBytes (at most 64 files)', () => {
  const b = toBatches(tasks(10, 40), 100);
  assert.deepEqual(b.map((x) => x.length), [2, 2, 2, 2, 2]);
  assert.deepEqual(b.flat().map((t) => t.path), tasks(10).map((t) => t.path));
  assert.equal(toBatches(tasks(200, 1), 1 << 20)[0]?.length, 64);
  assert.deepEqual(toBatches([{ path: '/big', from: 0, summary: null, bytes: 1000 }, ...tasks(1)], 100).map((x) => x.length), [1, 1], 'a file larger than a batch is a batch');
});

test('without workers every task is read in this thread, a file per turn, results handed back in order by batch', async () => {
  const indexer = createColdIndexer({ folds, batchBytes: 25 });
  const seen: FileResult[][] = [];
  await indexer.read('echo', tasks(7), (r) => seen.push(r));
  assert.deepEqual(seen.map((r) => r.length), [2, 2, 2, 1]);
  assert.deepEqual(seen.flat().map((r) => r.path), tasks(7).map((t) => t.path));
  await indexer.close();
});

test('in this thread a file per turn: what the event loop queued meanwhile runs between two files', async () => {
  const order: string[] = [];
  const indexer = createColdIndexer({ folds: { echo: (t) => { order.push(t.path); return (folds.echo as NonNullable<FoldRegistry[string]>)(t); } }, batchBytes: 1000 });
  const read = indexer.read('echo', tasks(3), () => {});
  setImmediate(() => order.push('turn'));
  await read;
  assert.deepEqual(order, ['/f/0', 'turn', '/f/1', '/f/2']);
  await indexer.close();
});

test('with workers this thread reads too, but never a file larger than a batch; every task is read once', async () => {
  // A worker that takes its batches and never answers: whatever is read, this thread read it.
  const posted: FileTask[][] = [];
  const silent = (): Worker => {
    const w = new Worker('require("node:worker_threads").parentPort.on("message", () => {})', { eval: true });
    const post = w.postMessage.bind(w);
    w.postMessage = (m: { tasks: FileTask[] }) => { posted.push(m.tasks); post(m); };
    return w;
  };
  const indexer = createColdIndexer({ folds, spawn: silent, workers: 1, readHereToo: true, batchBytes: 20 });
  const big = { path: '/big', from: 0, summary: null, bytes: 50 };
  const here: string[] = [];
  const all = [big, ...tasks(8)];
  const done = indexer.read('echo', all, (r) => here.push(...r.map((x) => x.path)));
  // The worker holds two batches (the large file first); this thread reads the other six files.
  for (const until = Date.now() + 10_000; here.length < 6 && Date.now() < until;) await new Promise((r) => setTimeout(r, 10));
  const byWorker = posted.flat().map((t) => t.path);
  assert.ok(byWorker.includes('/big'), byWorker.join());
  assert.ok(!here.includes('/big'));
  assert.deepEqual([...byWorker, ...here].sort(), all.map((t) => t.path).sort());
  await indexer.close();
  await done;
});

test('an unknown kind or a fold that throws gives failed results, never a rejection', async () => {
  const indexer = createColdIndexer({ folds: { ...folds, bad: () => { throw new Error('boom'); } } });
  const out: FileResult[] = [];
  await indexer.read('nope', tasks(1), (r) => out.push(...r));
  await indexer.read('bad', tasks(1), (r) => out.push(...r));
  assert.deepEqual(out.map((r) => (r.ok ? 'ok' : r.code)), ['EINVAL', 'EFOLD']);
  await indexer.close();
});

test('a worker that dies mid-run: what it held and the rest are read in this thread, nothing lost', async () => {
  const lines: string[] = [];
  const dying = (): Worker => new Worker('process.exit(3)', { eval: true });
  const indexer = createColdIndexer({ folds, spawn: dying, workers: 2, batchBytes: 10, log: (l) => lines.push(l) });
  const got: string[] = [];
  await indexer.read('echo', tasks(9), (r) => got.push(...r.map((x) => x.path)));
  assert.deepEqual(got.sort(), tasks(9).map((t) => t.path).sort());
  assert.ok(lines.some((l) => /worker thread failed/.test(l)), lines.join('\n'));
  await indexer.close();
});

test('real worker threads run the harness folds and give what this thread gives; they end once idle', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'muster-pool-'));
  try {
    const line = (i: number): string => JSON.stringify({ parentUuid: null, isSidechain: false, type: 'assistant', message: { id: `m${i}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: i, output_tokens: 1 } }, timestamp: '2026-11-30T06:52:53.501Z', sessionId: 's' });
    const files = Array.from({ length: 6 }, (_, i) => {
      const p = join(dir, `${i}.jsonl`);
      writeFileSync(p, `${Array.from({ length: 50 }, (_, k) => line(i * 100 + k)).join('\n')}\n`);
      return { path: p, from: 0, summary: null, bytes: 1 };
    });
    const entry = fileURLToPath(new URL('../../harnesses/index-worker.ts', import.meta.url));
    const { INDEX_FOLDS } = await import('../../harnesses/index-folds.ts');
    const spawned: Worker[] = [];
    const threaded = createColdIndexer({ folds: INDEX_FOLDS, spawn: () => { const w = spawnIndexWorker(entry); spawned.push(w); return w; }, workers: 2, batchBytes: 2 });
    const inThread = createColdIndexer({ folds: INDEX_FOLDS });
    const a: FileResult[] = [];
    const b: FileResult[] = [];
    await threaded.read('claude', files, (r) => a.push(...r));
    await inThread.read('claude', files, (r) => b.push(...r));
    const byPath = (r: FileResult[]): FileResult[] => [...r].sort((x, y) => x.path.localeCompare(y.path));
    assert.deepEqual(byPath(a), byPath(b));
    assert.ok(a.every((r) => r.ok));
    assert.equal(spawned.length, 2);
    await Promise.all(spawned.map((w) => new Promise((r) => (w.threadId === -1 ? r(null) : w.once('exit', r)))));
    await threaded.close();
    await inThread.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
