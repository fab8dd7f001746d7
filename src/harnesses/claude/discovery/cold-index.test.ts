import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import type { IndexProgress } from '../../../discovery/contract.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { createColdIndexer } from '../../../discovery/index-pool/index.ts';
import type { Session } from '../../../core/session.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { openSqliteStore } from '../../../store/index.ts';
import { createClaudeSource } from './source.ts';
import { foldClaudeTask } from './transcript-scan.ts';
import { assistantLine, metaLine, tempHome, toolResultLine, userLine, writeTranscript } from './claude-fixtures.test-support.ts';

const homes: string[] = [];
after(() => { for (const h of homes) fs.rmSync(h, { recursive: true, force: true }); });

const id = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const git = { read: () => ({ repoRoot: null, branch: null }) };

function history(n: number): string {
  const home = tempHome();
  homes.push(home);
  for (let i = 0; i < n; i++) {
    writeTranscript(home, id(i), [
      userLine(`task ${i}`, { sessionId: id(i), ts: `2026-11-30T06:${String(i % 60).padStart(2, '0')}:00.000Z` }),
      toolResultLine('output '.repeat(400 + i)),
      assistantLine({ id: `m${i}`, input: 1000 + i, output: 10, cacheRead: 5000, sessionId: id(i), requestId: `r${i}` }),
      metaLine('cost-state', { totalCostUSD: i / 100, startTime: 1 }, id(i)),
    ], `/home/dev/p${i % 3}`);
  }
  return home;
}

const byId = (list: Session[]): Session[] => [...list].sort((a, b) => a.id.localeCompare(b.id));
/** Waits until `check` holds, at most 5 s. */
const until = async (check: () => boolean): Promise<void> => {
  for (const deadline = Date.now() + 5000; !check() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
};

test('a cold index reads the history in batches beside the first listing, and ends with the listing a plain read gives', async () => {
  const home = history(24);
  const plainIndex = createMemoryTranscriptIndex();
  const plain = await createClaudeSource({ home, proc: createFakeProc(), git, index: plainIndex }).list();
  const indexer = createColdIndexer({ folds: { claude: foldClaudeTask }, batchBytes: 1, paceMs: 5 });
  const index = createMemoryTranscriptIndex();
  const source = createClaudeSource({ home, proc: createFakeProc(), git, index, cold: { indexer, minBytes: 0 } });
  const seen: IndexProgress[] = [];
  const run = source.coldIndex?.((p) => seen.push(p));
  assert.ok(run, 'a cold index started');
  const first = await source.list();
  assert.ok(first.length < 24, `the first listing leaves out what is not read yet (${first.length})`);
  await run;
  assert.deepEqual(seen[0], { harness: 'claude', total: 24, done: 0, bytesTotal: seen[0]?.bytesTotal, bytesDone: 0 });
  assert.equal(seen.at(-1)?.done, 24);
  assert.ok(seen.every((p, i) => i === 0 || p.done >= (seen[i - 1]?.done ?? 0)), 'progress only grows');
  assert.deepEqual(byId(await source.list()), byId(plain), 'tokens, cost, titles: the same sessions');
  assert.equal(source.coldIndex?.(() => {}), null, 'once indexed, nothing is left for a cold index');
  assert.equal(index.list('claude').length, 24);
  const byKey = (u: UsageRecord[]): UsageRecord[] => [...u].sort((a, b) => a.key.localeCompare(b.key));
  // The usage records and search's messages come with the second pass, once the listing is complete.
  await until(() => index.searchBehind?.() === 0);
  assert.equal(index.usage().length, 24);
  assert.deepEqual(byKey(index.usage()), byKey(plainIndex.usage()), 'the workers emit the usage records a plain read does');
  await indexer.close();
});

test('below the threshold there is no cold index: list() reads everything itself', async () => {
  const home = history(3);
  const indexer = createColdIndexer({ folds: { claude: foldClaudeTask } });
  const source = createClaudeSource({ home, proc: createFakeProc(), git, cold: { indexer, minBytes: 1 << 30 } });
  assert.equal(source.coldIndex?.(() => {}), null);
  assert.equal((await source.list()).length, 3);
  await indexer.close();
});

test('a file read by a watch event while the cold index runs keeps what that read wrote', async () => {
  const home = history(6);
  const indexer = createColdIndexer({ folds: { claude: foldClaudeTask }, batchBytes: 1, paceMs: 20 });
  const source = createClaudeSource({ home, proc: createFakeProc(), git, cold: { indexer, minBytes: 0 } });
  const run = source.coldIndex?.(() => {});
  const target = id(5);
  const file = writeTranscript(home, target, [userLine('renamed task', { sessionId: target }), assistantLine({ id: 'mx', input: 7, output: 7, sessionId: target })], '/home/dev/p2');
  assert.ok(fs.existsSync(file));
  const got = await source.get(target);
  assert.equal(got?.title, 'renamed task');
  await run;
  const after = (await source.list()).find((s) => s.id === target);
  assert.equal(after?.title, 'renamed task');
  assert.equal(after?.tokens.input, 7);
  await indexer.close();
});

test('a cold index holds the store\'s writes while it folds, and they are in the file right after it ends, not an interval later', async () => {
  const home = history(8);
  const dbPath = `${home}/muster.db`;
  const store = openSqliteStore({ path: dbPath, indexFlushIntervalMs: 60_000 });
  const indexer = createColdIndexer({ folds: { claude: foldClaudeTask }, batchBytes: 1 });
  const source = createClaudeSource({ home, proc: createFakeProc(), git, index: store.transcriptIndex, cold: { indexer, minBytes: 0 } });
  const peek = new Database(dbPath, { readonly: true });
  const rows = (sql: string): number => (peek.prepare(sql).get() as { n: number }).n;
  const whileFolding: number[] = [];
  try {
    const run = source.coldIndex?.((p) => {
      if (p.done > 0 && p.done < p.total) whileFolding.push(rows('SELECT count(*) AS n FROM transcript_index'));
    });
    assert.ok(run, 'a cold index started');
    await run;
    assert.ok(whileFolding.length > 0, 'progress was reported while it folded');
    assert.deepEqual(new Set(whileFolding), new Set([0]), 'nothing was written while it folded');
    assert.equal((await source.list()).length, 8, 'the listing is complete when it ends');
    await until(() => rows('SELECT count(*) AS n FROM transcript_index') >= 8);
    assert.equal(rows('SELECT count(*) AS n FROM transcript_index'), 8, 'every entry is in the file');
    // The usage records come with the second pass (with search's messages), once the listing is complete;
    // unheld, they go out at the store's interval (a minute here): flushed once they are all put.
    await until(() => store.transcriptIndex.searchBehind?.() === 0);
    assert.equal(store.transcriptIndex.searchBehind?.(), 0, 'the second pass put every file');
    store.transcriptIndex.flush?.();
    assert.equal(rows('SELECT count(*) AS n FROM usage_records'), 8, 'and every usage record');
  } finally {
    peek.close();
    store.close();
    await indexer.close();
  }
});

test('a cold index releases its hold when it ends, also when a read fails', async () => {
  const home = history(3);
  let holds = 0;
  let releases = 0;
  const index = { ...createMemoryTranscriptIndex(), hold: () => (holds++, () => void releases++) };
  const failing = { read: async () => { throw new Error('the worker died'); }, close: async () => {} };
  const source = createClaudeSource({ home, proc: createFakeProc(), git, index, cold: { indexer: failing, minBytes: 0 } });
  const run = source.coldIndex?.(() => {});
  assert.ok(run, 'a cold index started');
  await run.catch(() => {});
  assert.deepEqual([holds, releases], [1, 1]);
});
