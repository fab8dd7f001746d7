import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryTranscriptIndex } from '../contract.ts';
import { startColdRun } from './cold-run.ts';
import type { ColdIndexer, FileResult, FileTask } from './types.ts';

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
