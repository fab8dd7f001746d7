import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openOpenCodeDb, scanOpenCodeDb } from './db-reader.ts';
import { assistantMessage, createFixtureStore, fixtureSessionId, userMessage } from './fixture-store.test-support.ts';
import { isTurnOpen, type OpenCodeSessionSummary } from './summary.ts';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-db-'));
}

function scan(dbPath: string, prev: ReadonlyMap<string, OpenCodeSessionSummary> = new Map()) {
  const db = openOpenCodeDb(dbPath);
  try { return scanOpenCodeDb(db, prev); } finally { db.close(); }
}

test('reads title, cwd, model, tokens, cost and the last turn of a finished session', () => {
  const dir = tmp();
  const st = createFixtureStore(dir);
  const id = fixtureSessionId(1);
  st.addSession({ id, directory: '/home/dev/project oc', title: 'Greet the fake user', createdMs: 1000, updatedMs: 5000,
    tokens: { input: 701, output: 14, reasoning: 3, cacheRead: 5, cacheWrite: 6 }, cost: 0.25 });
  st.addMessage(id, 'msg_1', 1100, userMessage(1100));
  st.addMessage(id, 'msg_2', 1200, assistantMessage(1200, { completedMs: 1900, finish: 'stop' }));
  const r = scan(st.dbPath);
  const s = r.sessions.get(id);
  assert.ok(s);
  assert.equal(s.title, 'Greet the fake user');
  assert.equal(s.directory, '/home/dev/project oc');
  assert.equal(s.model, 'fake-model');
  assert.deepEqual(s.tokens, { input: 701, output: 17, cacheRead: 5, cacheWrite: 6 });
  assert.equal(s.costUsd, 0.25);
  assert.equal(s.lastUser?.createdMs, 1100);
  assert.equal(s.lastAssistant?.completedMs, 1900);
  assert.equal(isTurnOpen(s), false);
  st.close();
});

test('a reply that never completed (SIGKILL) leaves the turn open; a running tool is reported', () => {
  const dir = tmp();
  const st = createFixtureStore(dir);
  const id = fixtureSessionId(2);
  st.addSession({ id, directory: '/p', createdMs: 1000 });
  st.addMessage(id, 'msg_1', 1100, userMessage(1100));
  st.addPart(id, 'msg_1', 'prt_1', 1100, { type: 'text', text: 'RUNCMD:   touch\n/tmp/x' });
  st.addMessage(id, 'msg_2', 1200, assistantMessage(1200));
  st.addPart(id, 'msg_2', 'prt_2', 1250, { type: 'tool', tool: 'bash', callID: 'c1',
    state: { status: 'running', input: { command: 'touch /tmp/x' }, time: { start: 1300 } } });
  const s = scan(st.dbPath).sessions.get(id);
  assert.ok(s);
  assert.equal(isTurnOpen(s), true);
  assert.deepEqual(s.runningTool, { tool: 'bash', title: 'touch /tmp/x', startMs: 1300 });
  // The placeholder title gives way to the first prompt, on one line.
  assert.equal(s.title, 'RUNCMD: touch /tmp/x');
  st.close();
});

test('malformed message rows are skipped and counted, never fail the scan', () => {
  const dir = tmp();
  const st = createFixtureStore(dir);
  const id = fixtureSessionId(3);
  st.addSession({ id, directory: '/p', title: 'T', createdMs: 1000 });
  st.addMessage(id, 'msg_1', 1100, userMessage(1100));
  st.addMessage(id, 'msg_2', 1200, assistantMessage(1200, { completedMs: 1300, finish: 'stop' }));
  st.addMessage(id, 'msg_3', 1400, '{"role":"assistant","time":{"crea');
  const r = scan(st.dbPath);
  assert.equal(r.malformed, 1);
  assert.equal(r.sessions.get(id)?.lastAssistant?.id, 'msg_2');
  st.close();
});

test('incremental: unchanged sessions are carried over, a completed reply is noticed without a session bump', () => {
  const dir = tmp();
  const st = createFixtureStore(dir);
  const a = fixtureSessionId(4);
  const b = fixtureSessionId(5);
  st.addSession({ id: a, directory: '/p', title: 'A', createdMs: 1000 });
  st.addSession({ id: b, directory: '/p', title: 'B', createdMs: 1000 });
  st.addMessage(a, 'msg_1', 1100, userMessage(1100));
  st.addMessage(a, 'msg_2', 1200, assistantMessage(1200));
  const first = scan(st.dbPath);
  assert.equal(first.reread, 2);
  const second = scan(st.dbPath, first.sessions);
  assert.equal(second.reread, 0);
  assert.equal(second.sessions.get(b), first.sessions.get(b), 'same object carried over');
  // OpenCode completes the reply (message row updated) without touching session.time_updated.
  st.db.prepare('UPDATE message SET data = ?, time_updated = 1500 WHERE id = ?')
    .run(JSON.stringify(assistantMessage(1200, { completedMs: 1500, finish: 'stop', error: 'MessageAbortedError' })), 'msg_2');
  const third = scan(st.dbPath, second.sessions);
  assert.equal(third.reread, 1);
  assert.equal(third.sessions.get(a)?.lastAssistant?.error, 'MessageAbortedError');
  assert.equal(isTurnOpen(third.sessions.get(a)!), false);
  // A deleted session disappears.
  st.db.prepare('DELETE FROM session WHERE id = ?').run(b);
  assert.equal(scan(st.dbPath, third.sessions).sessions.has(b), false);
  st.close();
});

test('child (subagent) sessions are not listed on their own', () => {
  const dir = tmp();
  const st = createFixtureStore(dir);
  st.addSession({ id: fixtureSessionId(6), directory: '/p', title: 'parent', createdMs: 1 });
  st.addSession({ id: fixtureSessionId(7), directory: '/p', title: 'child', createdMs: 2, parentId: fixtureSessionId(6) });
  assert.deepEqual([...scan(st.dbPath).sessions.keys()], [fixtureSessionId(6)]);
  st.close();
});

test('an older schema without token columns sums the assistant messages', () => {
  const dir = tmp();
  const st = createFixtureStore(dir);
  const id = fixtureSessionId(8);
  st.addSession({ id, directory: '/p', title: 'old', createdMs: 1 });
  st.addMessage(id, 'msg_1', 2, assistantMessage(2, { completedMs: 3, finish: 'stop' }));
  st.addMessage(id, 'msg_2', 4, assistantMessage(4, { completedMs: 5, finish: 'stop' }));
  for (const c of ['tokens_input', 'tokens_output', 'tokens_reasoning', 'tokens_cache_read', 'tokens_cache_write', 'cost']) {
    st.db.exec(`ALTER TABLE session DROP COLUMN ${c}`);
  }
  const s = scan(st.dbPath).sessions.get(id);
  assert.deepEqual(s?.tokens, { input: 20, output: 4, cacheRead: 0, cacheWrite: 0 });
  assert.equal(s?.costUsd, 0);
  st.close();
});

test('reading never writes the store: the database file bytes are unchanged', () => {
  const dir = tmp();
  const st = createFixtureStore(dir);
  st.addSession({ id: fixtureSessionId(9), directory: '/p', title: 'x', createdMs: 1 });
  st.db.pragma('wal_checkpoint(TRUNCATE)');
  const before = fs.readFileSync(st.dbPath);
  scan(st.dbPath);
  assert.deepEqual(fs.readFileSync(st.dbPath), before);
  st.close();
});
