// OpenCode's cold index: a long history in opencode.db read in chunks of sessions by the cold indexer,
// with progress, ending with the listing (and usage records) a plain read gives.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import type { IndexProgress } from '../../../discovery/contract.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { createColdIndexer } from '../../../discovery/index-pool/index.ts';
import type { Session } from '../../../core/session.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { CHUNK_SESSIONS, OPENCODE_COLD_KIND, foldOpenCodeTask } from './cold.ts';
import { assistantMessage, createFixtureStore, fixtureSessionId, userMessage, type FixtureStore } from './fixture-store.test-support.ts';
import { createOpenCodeSource } from './source.ts';

const dirs: string[] = [];
after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });
const git = { read: () => ({ repoRoot: null, branch: null }), clear: () => {} };
const N = CHUNK_SESSIONS * 2 + 10;

function history(n: number): FixtureStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-cold-'));
  dirs.push(dir);
  const st = createFixtureStore(dir);
  st.db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const id = fixtureSessionId(i);
      st.addSession({ id, directory: `/home/dev/p${i % 3}`, title: i % 5 === 0 ? undefined : `task ${i}`, createdMs: 1000 + i, updatedMs: 5000 + i,
        tokens: { input: 100 + i, output: 10 }, cost: i % 2 ? 0.5 : 0 });
      st.addMessage(id, `msg_${i}_a`, 2000 + i, userMessage(2000 + i));
      st.addPart(id, `msg_${i}_a`, `prt_${i}_a`, 2000 + i, { type: 'text', text: `prompt ${i}` });
      st.addMessage(id, `msg_${i}_b`, 3000 + i, assistantMessage(3000 + i, { completedMs: 4000 + i, finish: 'stop' }));
    }
  })();
  return st;
}

const byId = (list: Session[]): Session[] => [...list].sort((a, b) => a.id.localeCompare(b.id));
const byKey = (u: readonly UsageRecord[]): UsageRecord[] => [...u].sort((a, b) => a.key.localeCompare(b.key));
const proc = (): ReturnType<typeof createFakeProc> => createFakeProc();

test('a cold index reads the store in chunks beside the first listing, and ends with the listing a plain read gives', async () => {
  const st = history(N);
  const plainIndex = createMemoryTranscriptIndex();
  const plain = await createOpenCodeSource({ home: st.dataDir, proc: proc(), git, index: plainIndex }).list();
  assert.equal(plain.length, N);
  const indexer = createColdIndexer({ folds: { [OPENCODE_COLD_KIND]: foldOpenCodeTask }, batchBytes: 1, paceMs: 5 });
  const index = createMemoryTranscriptIndex();
  const source = createOpenCodeSource({ home: st.dataDir, proc: proc(), git, index, cold: { indexer, minBytes: 0 } });
  const seen: IndexProgress[] = [];
  const run = source.coldIndex?.((p) => seen.push(p));
  assert.ok(run, 'a cold index started');
  const first = await source.list();
  assert.ok(first.length < N, `the first listing leaves out what is not read yet (${first.length})`);
  await run;
  assert.deepEqual(seen[0], { harness: 'opencode', total: N, done: 0, bytesTotal: seen[0]?.bytesTotal, bytesDone: 0 });
  assert.equal(seen.length, 1 + Math.ceil(N / CHUNK_SESSIONS), 'a figure per chunk');
  assert.equal(seen.at(-1)?.done, N);
  assert.ok(index.get(st.dbPath), 'nothing was committed meanwhile: the index holds the store as it is');
  assert.deepEqual(byId(await source.list()), byId(plain), 'tokens, cost, titles: the same sessions');
  assert.equal(source.diagnostics().linesParsed, N, 'the listing after it read nothing again');
  assert.equal(source.coldIndex?.(() => {}), null, 'once indexed, nothing is left for a cold index');
  assert.deepEqual(byKey(index.usage()), byKey(plainIndex.usage()), 'the workers emit the usage records a plain read does');
  await indexer.close();
});

test('a session OpenCode changes while the cold index reads is read again by the listing after it', async () => {
  const st = history(N);
  const indexer = createColdIndexer({ folds: { [OPENCODE_COLD_KIND]: foldOpenCodeTask }, batchBytes: 1, paceMs: 20 });
  const source = createOpenCodeSource({ home: st.dataDir, proc: proc(), git, cold: { indexer, minBytes: 0 } });
  const run = source.coldIndex?.(() => {});
  assert.ok(run);
  // The newest session (read in the first chunk) gets a new turn meanwhile.
  const id = fixtureSessionId(N - 1);
  st.addMessage(id, 'msg_z_a', 9000, userMessage(9000));
  st.touchSession(id, 9001);
  await run;
  const s = (await source.list()).find((x) => x.id === id);
  assert.equal(s?.lastActivityAt, new Date(9001).toISOString(), 'the new turn is seen');
  assert.equal(s?.status, 'stuck', 'a prompt without a reply and no live process');
  await indexer.close();
});

test('below the threshold, or a store scanned before, there is no cold index: list() reads it itself', async () => {
  const st = history(5);
  const indexer = createColdIndexer({ folds: { [OPENCODE_COLD_KIND]: foldOpenCodeTask } });
  const index = createMemoryTranscriptIndex();
  const big = createOpenCodeSource({ home: st.dataDir, proc: proc(), git, index, cold: { indexer, minBytes: 1 << 30 } });
  assert.equal(big.coldIndex?.(() => {}), null);
  assert.equal((await big.list()).length, 5);
  const again = createOpenCodeSource({ home: st.dataDir, proc: proc(), git, index, cold: { indexer, minBytes: 0 } });
  assert.equal(again.coldIndex?.(() => {}), null, 'the index holds the store');
  await indexer.close();
});

test('the conversations come in a second pass once the listing is complete; a scan meanwhile reads only what changed, and keeps what it read', async () => {
  const st = history(N);
  const index = createMemoryTranscriptIndex();
  const indexer = createColdIndexer({ folds: { [OPENCODE_COLD_KIND]: foldOpenCodeTask }, batchBytes: 1 });
  const source = createOpenCodeSource({ home: st.dataDir, proc: proc(), git, index, cold: { indexer, minBytes: 0, searchAfterMs: 300 } });
  const entry = (i: number): string => `${st.dbPath}#${fixtureSessionId(i)}`;
  await source.coldIndex?.(() => {});
  assert.equal(index.searchBehind?.(), N, 'every session waits for its conversation');
  assert.deepEqual(index.messages(entry(3)), []);
  // A session gets a new prompt before the second pass: the scan reads that one, with its whole conversation.
  const changed = fixtureSessionId(7);
  st.addMessage(changed, 'msg_7_z', 9000, userMessage(9000));
  st.addPart(changed, 'msg_7_z', 'prt_7_z', 9000, { type: 'text', text: 'late words' });
  st.touchSession(changed, 9001);
  assert.equal((await source.list()).length, N);
  assert.equal(source.diagnostics().linesParsed, N + 1, 'the scan read the changed session only');
  assert.deepEqual(index.messages(entry(7)).map((m) => m.text), ['prompt 7', 'late words']);
  for (const until = Date.now() + 10_000; index.searchBehind?.() !== 0; await new Promise((r) => setTimeout(r, 20))) {
    assert.ok(Date.now() < until, `the second pass did not end (${index.searchBehind?.()} behind)`);
  }
  assert.deepEqual(index.messages(entry(3)).map((m) => [m.role, m.text]), [['user', 'prompt 3']], 'the second pass brought the conversation');
  assert.deepEqual(index.messages(entry(7)).map((m) => m.text), ['prompt 7', 'late words'], 'and left the scanned session as the scan put it');
  await source.list();
  assert.equal(source.diagnostics().linesParsed, N + 1, 'nothing is read again once every session has its conversation');
  await indexer.close();
});
