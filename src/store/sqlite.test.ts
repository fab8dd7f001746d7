import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { STORE_PAGE_SIZE, openSqliteStore } from './sqlite.ts';
import { SEARCH_PENDING_TERMS_BYTES, searchDbPathOf } from './search-db.ts';
import { MIGRATIONS, migrate } from './migrations.ts';
import { MusterError } from '../errors/index.ts';
import { record } from '../usage/usage-fixtures.test-support.ts';

function tempDb() {
  const dir = mkdtempSync(join(tmpdir(), 'muster-store-'));
  return { path: join(dir, 'muster.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test('a new store is WAL, 0600, migrated to the latest version', () => {
  const t = tempDb();
  try {
    const store = openSqliteStore({ path: t.path });
    assert.equal(store.schemaVersion, MIGRATIONS.at(-1)?.version);
    store.close();
    store.close(); // idempotent
    assert.equal(statSync(t.path).mode & 0o777, 0o600);
    const db = new Database(t.path, { readonly: true });
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.at(-1)?.version);
    db.close();
  } finally {
    t.cleanup();
  }
});

/** search_text's FTS5 settings as its config table holds them. */
function ftsConfig(db: Database.Database): Record<string, unknown> {
  return Object.fromEntries(db.prepare<[], { k: string; v: unknown }>('SELECT k, v FROM search_text_config').all().map((r) => [r.k, r.v]));
}

test('a new store and its search database have 16 KiB pages and FTS5 leaves to match; a store made with 4 KiB pages keeps them, its old search tables moved out', async () => {
  const t = tempDb();
  const old = tempDb();
  try {
    const store = openSqliteStore({ path: t.path });
    store.transcriptIndex.put({ path: '/p/a.jsonl', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: {}, messages: { sessionId: 's', from: 0, items: [{ role: 'user', text: 'fix the flaky login test', at: null }] } });
    store.close();
    let db = new Database(t.path, { readonly: true });
    assert.equal(db.pragma('page_size', { simple: true }), STORE_PAGE_SIZE);
    db.close();
    assert.equal(statSync(searchDbPathOf(t.path)).mode & 0o777, 0o600);
    db = new Database(searchDbPathOf(t.path), { readonly: true });
    assert.equal(db.pragma('page_size', { simple: true }), STORE_PAGE_SIZE);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.deepEqual(ftsConfig(db), { version: 4, pgsz: STORE_PAGE_SIZE - 46, hashsize: SEARCH_PENDING_TERMS_BYTES });
    db.close();
    const reopened = openSqliteStore({ path: t.path });
    const hits = await reopened.search.query({ match: '"flaky"', roles: [], harnesses: [], repos: [], branches: [], sinceMs: null, untilMs: null }, 5);
    assert.equal(hits.length, 1);
    reopened.close();

    // An older store: made (and migrated to version 11) with SQLite's default page size.
    db = new Database(old.path);
    migrate(db, MIGRATIONS.filter((m) => m.version <= 11));
    assert.equal(db.pragma('page_size', { simple: true }), 4096);
    db.close();
    openSqliteStore({ path: old.path }).close();
    db = new Database(old.path, { readonly: true });
    assert.equal(db.pragma('page_size', { simple: true }), 4096);
    assert.equal(db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'search%'").get()?.n, 0, 'no search table is left in the store');
    db.close();
  } finally {
    t.cleanup();
    old.cleanup();
  }
});

test('settings: defaults, validated updates that persist across reopen, unknown keys and wrong types refused', async () => {
  const t = tempDb();
  try {
    let store = openSqliteStore({ path: t.path });
    assert.equal((await store.settings.all()).theme, 'system');
    await store.settings.update({ theme: 'dark', rescanSeconds: 45 });
    await assert.rejects(store.settings.update({ nope: 1 }), (e: unknown) => e instanceof MusterError && e.code === 'invalid_setting');
    await assert.rejects(store.settings.update({ theme: 7 }), (e: unknown) => e instanceof MusterError && e.code === 'invalid_setting');
    await assert.rejects(store.settings.update({ rescanSeconds: 5 }), (e: unknown) => e instanceof MusterError && e.code === 'invalid_setting');
    store.close();
    store = openSqliteStore({ path: t.path });
    const s = await store.settings.all();
    assert.equal(s.theme, 'dark');
    assert.equal(s.rescanSeconds, 45);
    store.close();
  } finally {
    t.cleanup();
  }
});

test('transcript index round-trips entries per harness', () => {
  const store = openSqliteStore({ path: ':memory:' });
  store.transcriptIndex.put({ path: '/a.jsonl', harness: 'claude', size: 10, mtimeMs: 1.5, offset: 8, summary: { title: 'x' } });
  store.transcriptIndex.put({ path: '/b.jsonl', harness: 'pi', size: 1, mtimeMs: 2, offset: 0, summary: null });
  assert.deepEqual(store.transcriptIndex.get('/a.jsonl'), { path: '/a.jsonl', harness: 'claude', size: 10, mtimeMs: 1.5, offset: 8, summary: { title: 'x' } });
  assert.equal(store.transcriptIndex.list('claude').length, 1);
  store.transcriptIndex.remove('/a.jsonl');
  assert.equal(store.transcriptIndex.get('/a.jsonl'), undefined);
  store.close();
});

test('a store written by a newer schema is refused, not corrupted', () => {
  const db = new Database(':memory:');
  db.pragma('user_version = 999');
  assert.throws(() => migrate(db), /newer than this build/);
  db.close();
});

test('transcript index writes are batched per tick and survive close and reopen', async () => {
  const t = tempDb();
  try {
    const store = openSqliteStore({ path: t.path });
    for (let i = 0; i < 500; i++) store.transcriptIndex.put({ path: `/t/${i}.jsonl`, harness: 'claude', size: i, mtimeMs: i, offset: i, summary: { i } });
    store.transcriptIndex.remove('/t/7.jsonl');
    const peek = new Database(t.path, { readonly: true });
    assert.equal((peek.prepare('SELECT count(*) n FROM transcript_index').get() as { n: number }).n, 0, 'not yet written: one batch per tick');
    await new Promise((r) => setImmediate(r));
    assert.equal((peek.prepare('SELECT count(*) n FROM transcript_index').get() as { n: number }).n, 499, 'one transaction wrote the batch');
    peek.close();
    store.transcriptIndex.put({ path: '/t/late.jsonl', harness: 'pi', size: 1, mtimeMs: 1, offset: 1, summary: null });
    store.close();
    const again = openSqliteStore({ path: t.path });
    assert.equal(again.transcriptIndex.list('claude').length, 499);
    assert.equal(again.transcriptIndex.get('/t/late.jsonl')?.harness, 'pi', 'close flushed the pending write');
    assert.deepEqual(again.transcriptIndex.get('/t/3.jsonl')?.summary, { i: 3 });
    again.close();
  } finally {
    t.cleanup();
  }
});

test('with a flush interval, a write after a quiet spell commits on the next tick and later ones wait for the interval', async () => {
  const t = tempDb();
  const intervalMs = 300;
  try {
    const store = openSqliteStore({ path: t.path, indexFlushIntervalMs: intervalMs });
    const peek = new Database(t.path, { readonly: true });
    const rows = (): number => (peek.prepare('SELECT count(*) n FROM transcript_index').get() as { n: number }).n;
    const put = (i: number): void => store.transcriptIndex.put({ path: `/t/${i}.jsonl`, harness: 'claude', size: i, mtimeMs: i, offset: i, summary: null });
    put(1);
    await new Promise((r) => setImmediate(r));
    assert.equal(rows(), 1, 'the first write commits at once');
    const committed = performance.now();
    put(2);
    put(3);
    await new Promise((r) => setImmediate(r));
    assert.equal(rows(), 1, 'writes right after a commit are gathered');
    assert.equal(store.transcriptIndex.list('claude').length, 3, 'and answered from memory meanwhile');
    while (rows() < 3) await new Promise((r) => setTimeout(r, 10));
    assert.ok(performance.now() - committed >= intervalMs - 5, 'committed once the interval had passed');
    put(4);
    store.close();
    assert.equal(rows(), 4, 'close commits what is pending without waiting');
    peek.close();
  } finally {
    t.cleanup();
  }
});

test('with a flush interval, writes that pile up past 8,192 usage records and messages commit on the next tick', async () => {
  const t = tempDb();
  try {
    const store = openSqliteStore({ path: t.path, indexFlushIntervalMs: 60_000 });
    const peek = new Database(t.path, { readonly: true });
    const count = (table: string): number => (peek.prepare(`SELECT count(*) n FROM ${table}`).get() as { n: number }).n;
    const put = (path: string, records: number): void => store.transcriptIndex.put({
      path, harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: null,
      usage: Array.from({ length: records }, (_, i) => record({ iso: '2026-12-01T10:00:00Z', key: `${path}:${i}`, input: 1, output: 1 })),
    });
    put('/a', 1);
    await new Promise((r) => setImmediate(r));
    assert.equal(count('transcript_index'), 1, 'the first write commits at once');
    put('/b', 4000);
    await new Promise((r) => setImmediate(r));
    assert.equal(count('transcript_index'), 1, 'a small pile waits for the interval');
    put('/c', 4192);
    await new Promise((r) => setImmediate(r));
    assert.equal(count('transcript_index'), 3, 'a pile of 8,192 rows does not wait');
    assert.equal(count('usage_records'), 8193);
    peek.close();
    store.close();
  } finally {
    t.cleanup();
  }
});

test('migrations are listed in ascending version order, and a store reopens at the latest version', () => {
  const versions = MIGRATIONS.map((m) => m.version);
  assert.deepEqual(versions, [...versions].sort((a, b) => a - b), 'ascending');
  assert.equal(new Set(versions).size, versions.length, 'unique');
  const t = tempDb();
  try {
    openSqliteStore({ path: t.path }).close();
    const again = openSqliteStore({ path: t.path });
    assert.equal(again.schemaVersion, versions.at(-1));
    again.close();
    const db = new Database(t.path, { readonly: true });
    assert.equal(db.pragma('user_version', { simple: true }), versions.at(-1));
    db.close();
  } finally {
    t.cleanup();
  }
});

test('transcript index: list(harness) on a reopened store reads only that harness, and agrees once everything is cached', () => {
  const t = tempDb();
  try {
    const a = openSqliteStore({ path: t.path });
    a.transcriptIndex.put({ path: '/c/1.jsonl', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: { n: 1 } });
    a.transcriptIndex.put({ path: '/o/db#ses_1', harness: 'opencode', size: 2, mtimeMs: 2, offset: 0, summary: { id: 'ses_1' } });
    a.close();
    const b = openSqliteStore({ path: t.path });
    const before = b.transcriptIndex.list('opencode');
    assert.deepEqual(before, [{ path: '/o/db#ses_1', harness: 'opencode', size: 2, mtimeMs: 2, offset: 0, summary: { id: 'ses_1' } }]);
    assert.deepEqual(b.transcriptIndex.get('/c/1.jsonl')?.summary, { n: 1 }, 'get still sees every harness');
    assert.deepEqual(b.transcriptIndex.list('opencode'), before);
    b.transcriptIndex.put({ path: '/o/db#ses_2', harness: 'opencode', size: 3, mtimeMs: 3, offset: 0, summary: null });
    assert.equal(b.transcriptIndex.list('opencode').length, 2, 'an unflushed put is listed');
    b.close();
  } finally {
    t.cleanup();
  }
});
