// The bulk reader (one pass over many sessions' messages; the cold index's fold) gives what the
// per-session reader gives, field for field: summaries, change keys, usage records and marks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { foldOpenCodeTask, chunkTasks, type OpenCodeChunkResult } from './cold.ts';
import { createBulkReader } from './db-bulk.ts';
import { openOpenCodeDb, readSessionKeys, scanOpenCodeDb } from './db-reader.ts';
import { sessionTableColumns } from './db-rows.ts';
import { assistantMessage, createFixtureStore, fixtureSessionId, userMessage, type FixtureStore } from './fixture-store.test-support.ts';
import type { OpenCodeSessionSummary } from './summary.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';

/** Sessions of every shape the readers tell apart. */
function varied(st: FixtureStore, n: number): void {
  for (let i = 0; i < n; i++) {
    const id = fixtureSessionId(100 + i);
    st.addSession({ id, directory: `/p/${i % 3}`, title: i % 4 === 0 ? undefined : `Task ${i}`, createdMs: 1000 * i, updatedMs: 1000 * i + 900,
      tokens: { input: 10 * i, output: i, reasoning: i % 2, cacheRead: 3, cacheWrite: 4 }, cost: i % 3 === 0 ? 0 : 0.01 * i,
      model: i % 5 === 0 ? null : undefined });
    const msgs = i === 7 ? 60 : i === 8 ? 0 : 2 + (i % 6);
    for (let m = 0; m < msgs; m++) {
      const at = 1000 * i + 10 * m + 1;
      const mid = `msg_${String(i).padStart(3, '0')}_${String(m).padStart(3, '0')}`;
      // Session 7: one reply, then 59 prompts: the reply is beyond the 50 newest messages.
      const user = i === 7 ? m !== 0 : m % 2 === 0;
      if (i % 5 === 1 && m === 1) { st.addMessage(id, mid, at, '{"role":"assistant","time":{"crea'); continue; }
      if (user) {
        st.addMessage(id, mid, at, userMessage(at));
        st.addPart(id, mid, `prt_${mid}_a`, at, { type: 'text', text: `prompt ${i}.${m}\n  with   spaces` });
        continue;
      }
      const last = m >= msgs - 2;
      const open = last && i % 7 === 2;
      const data = assistantMessage(at, open ? {} : { completedMs: at + 5, finish: m % 4 === 1 ? 'tool-calls' : 'stop', error: i % 9 === 4 ? 'MessageAbortedError' : undefined }) as Record<string, unknown>;
      if (i % 6 === 5) data.tokens = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
      if (i % 4 === 3) data.cost = 0.002 * m;
      st.addMessage(id, mid, at, data, at + 3);
      if (open) st.addPart(id, mid, `prt_${mid}_t`, at + 1, { type: 'tool', tool: 'bash', state: { status: 'running', input: { command: `run ${i}` }, time: { start: at + 1 } } });
    }
    if (i % 5 === 2) st.addSession({ id: fixtureSessionId(500 + i), directory: '/p/0', title: 'child', createdMs: 1000 * i + 1, parentId: id });
  }
}

function tmpStore(): FixtureStore {
  return createFixtureStore(fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-bulk-')));
}

const byKey = (u: UsageRecord[]): UsageRecord[] => [...u].sort((a, b) => (a.key < b.key ? -1 : 1));

function bothWays(dbPath: string, prev: ReadonlyMap<string, OpenCodeSessionSummary> = new Map()) {
  const db = openOpenCodeDb(dbPath);
  try {
    return { bulk: scanOpenCodeDb(db, prev, { bulkMin: 0 }), each: scanOpenCodeDb(db, prev, { bulkMin: Infinity }) };
  } finally {
    db.close();
  }
}

test('bulk and per-session reads agree on every session, usage record and mark, first read and incremental', () => {
  const st = tmpStore();
  varied(st, 30);
  const first = bothWays(st.dbPath);
  assert.equal(first.bulk.reread, 30);
  assert.deepEqual(first.bulk.sessions, first.each.sessions);
  assert.deepEqual(byKey(first.bulk.usage), byKey(first.each.usage));
  assert.deepEqual(first.bulk.messages, first.each.messages, 'the same conversations for the search index');
  assert.equal(first.bulk.messages.size, 30);
  assert.ok(first.bulk.usage.length > 20);
  assert.equal(first.bulk.sessions.get(fixtureSessionId(107))?.lastAssistant, null, 'a reply beyond the 50 newest messages is not the last reply');
  assert.ok([...first.bulk.sessions.values()].some((s) => s.runningTool !== null));
  // A reply completes and another session gets a new turn: both readers pick up only what is new.
  st.db.prepare('UPDATE message SET data = ?, time_updated = 99999 WHERE id = ?').run(JSON.stringify(assistantMessage(2001, { completedMs: 2100, finish: 'stop' })), 'msg_002_003');
  st.addMessage(fixtureSessionId(103), 'msg_003_900', 99_000, assistantMessage(99_000, { completedMs: 99_100, finish: 'stop' }), 99_200);
  const second = bothWays(st.dbPath, first.each.sessions);
  assert.equal(second.each.reread, 2);
  // Known sessions are read one by one (newest messages, usage since their mark); the bulk reader given
  // the same marks reads the same.
  const changed = [fixtureSessionId(102), fixtureSessionId(103)];
  const db = openOpenCodeDb(st.dbPath);
  const bulk = createBulkReader(db, sessionTableColumns(db)).read(changed, new Map(changed.map((id) => [id, first.each.sessions.get(id)?.usageMark ?? 0])));
  db.close();
  // (The bulk reader alone reads no conversation: the scan adds each session's search mark.)
  for (const s of bulk.sessions) {
    const { search, ...summary } = second.each.sessions.get(s.id) ?? { search: undefined };
    assert.ok(search);
    assert.deepEqual(s, summary);
  }
  assert.deepEqual(byKey(bulk.usage), byKey(second.each.usage));
  assert.ok(bulk.usage.length >= 2, 'the completed reply and the new one');
  st.close();
});

test('an older schema without token columns: bulk sums the replies as the per-session reader does', () => {
  const st = tmpStore();
  varied(st, 12);
  for (const c of ['tokens_input', 'tokens_output', 'tokens_reasoning', 'tokens_cache_read', 'tokens_cache_write', 'cost']) st.db.exec(`ALTER TABLE session DROP COLUMN ${c}`);
  const r = bothWays(st.dbPath);
  assert.deepEqual(r.bulk.sessions, r.each.sessions);
  st.close();
});

test('the cold fold reads a chunk with the change keys the key query gives, so nothing is read twice; its conversations in a second pass', () => {
  const st = tmpStore();
  varied(st, 20);
  st.db.pragma('wal_checkpoint(TRUNCATE)');
  const db = openOpenCodeDb(st.dbPath);
  const keys = readSessionKeys(db);
  const scanned = scanOpenCodeDb(db, new Map(), { bulkMin: Infinity });
  db.close();
  const tasks = chunkTasks(st.dbPath, keys.map((k) => k.id), 1000, keys.length);
  const first = new Map<string, OpenCodeSessionSummary>();
  const usage: UsageRecord[] = [];
  for (const t of tasks) {
    const r = foldOpenCodeTask(t);
    assert.ok(r.ok);
    const chunk = r.summary as OpenCodeChunkResult;
    assert.deepEqual([chunk.messages, chunk.marks], [{}, {}], 'the first pass reads no conversation');
    for (const s of chunk.sessions) first.set(s.id, s);
    usage.push(...r.usage);
  }
  assert.equal(first.size, 20);
  assert.deepEqual(byKey(usage), byKey(scanned.usage));
  const got = new Map<string, OpenCodeSessionSummary>();
  const messages = new Map<string, unknown>();
  for (const t of tasks) {
    const r = foldOpenCodeTask({ ...t, messages: true });
    assert.ok(r.ok);
    const chunk = r.summary as OpenCodeChunkResult;
    assert.deepEqual([chunk.sessions, r.usage, r.linesParsed], [[], [], 0], 'the second pass reads conversations only');
    for (const [id, mark] of Object.entries(chunk.marks)) got.set(id, { ...(first.get(id) as OpenCodeSessionSummary), search: mark });
    for (const [id, m] of Object.entries(chunk.messages)) messages.set(id, m);
  }
  for (const k of keys) assert.deepEqual(got.get(k.id), scanned.sessions.get(k.id));
  assert.deepEqual(messages, scanned.messages, 'each session\'s conversation for the search index, as a scan reads it');
  const again = openOpenCodeDb(st.dbPath);
  assert.equal(scanOpenCodeDb(again, got).reread, 0, 'a scan over both passes\' summaries re-reads nothing');
  assert.equal(scanOpenCodeDb(again, first, { searchPending: new Set(first.keys()) }).reread, 0, 'nor over the first pass\'s while the second is pending');
  assert.equal(scanOpenCodeDb(again, first).reread, 20, 'else a summary without a search mark is read again');
  again.close();
  st.close();
});

test('the cold fold of a store that is gone is a failed result, not a throw', () => {
  const r = foldOpenCodeTask({ path: path.join(os.tmpdir(), 'muster-no-such-dir', 'opencode.db'), from: 0, summary: { ids: ['x'] }, bytes: 10 });
  assert.equal(r.ok, false);
});
