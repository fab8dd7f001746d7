import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, migrate } from './migrations.ts';
import { openSqliteStore } from './index.ts';
import { parseSearchQuery } from '../search/index.ts';
import { SCHEMA_MARKER, SCHEMA_VERSION } from './schema-version.ts';

describe('the schema version the CLI reads without the migrations', () => {
  it('is the last migration\'s version, and the marker names it', () => {
    assert.equal(SCHEMA_VERSION, Math.max(...MIGRATIONS.map((m) => m.version)));
    assert.equal(SCHEMA_MARKER, `muster-schema-${SCHEMA_VERSION}`);
  });
});

describe('migrations 11 and 13: search rows name their file by id, then move to the search database', () => {
  it('keeps what a version-10 store indexed: the same hits, sessions, harnesses, roles and positions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'muster-mig11-'));
    try {
      const path = join(dir, 'muster.db');
      const db = new Database(path);
      migrate(db, MIGRATIONS.filter((m) => m.version <= 10));
      const doc = db.prepare('INSERT INTO search_docs(path, harness, session_id, role, at_ms, position) VALUES (?, ?, ?, ?, ?, ?)');
      const text = db.prepare('INSERT INTO search_text(rowid, text, tags) VALUES (?, ?, ?)');
      db.prepare("INSERT INTO search_files VALUES ('/t/a.jsonl', 'claude', 'sess-a', 2), ('/t/b.jsonl', 'codex', 'sess-b', 1)").run();
      // Their transcripts as the index holds them (a transcript without messages, too: it keeps its place).
      db.prepare("INSERT INTO transcript_index VALUES ('/t/a.jsonl', 'claude', 9, 1, 9, '{}'), ('/t/b.jsonl', 'codex', 7, 1, 7, '{}'), ('/t/c.jsonl', 'claude', 5, 1, 5, '{}')").run();
      text.run(doc.run('/t/a.jsonl', 'claude', 'sess-a', 'user', 1000, 0).lastInsertRowid, 'fix the flaky login', 'roleuser harnessclaude');
      text.run(doc.run('/t/a.jsonl', 'claude', 'sess-a', 'assistant', 2000, 1).lastInsertRowid, 'the login works', 'roleassistant harnessclaude');
      text.run(doc.run('/t/b.jsonl', 'codex', 'sess-b', 'user', 3000, 0).lastInsertRowid, 'login page', 'roleuser harnesscodex');
      // A row whose file was never written: dropped with its text.
      text.run(doc.run('/t/gone.jsonl', 'claude', 'sess-x', 'user', 4000, 0).lastInsertRowid, 'login orphan', 'roleuser harnessclaude');
      db.close();

      const store = openSqliteStore({ path });
      const parsed = parseSearchQuery('login', Date.now());
      assert.ok(parsed.ok);
      const hits = await store.search.query(parsed.query, 10);
      assert.deepEqual(hits.map((h) => [h.sessionId, h.harness, h.role, h.position]).sort(), [
        ['sess-a', 'claude', 'assistant', 1], ['sess-a', 'claude', 'user', 0], ['sess-b', 'codex', 'user', 0],
      ]);
      assert.deepEqual(await store.search.stats(), { messages: 3, files: 2 });
      assert.deepEqual(store.transcriptIndex.list('claude').map((e) => [e.path, e.offset]).sort(), [['/t/a.jsonl', 9], ['/t/c.jsonl', 5]], 'no transcript is read again');
      // Appends continue after the file's next position.
      store.transcriptIndex.put({ path: '/t/a.jsonl', harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: {}, messages: { sessionId: 'sess-a', from: 5, items: [{ role: 'user', text: 'login again', at: null }] } });
      await new Promise((r) => setImmediate(r));
      const again = parseSearchQuery('again', Date.now());
      assert.ok(again.ok);
      assert.deepEqual((await store.search.query(again.query, 10)).map((h) => h.position), [2]);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
