import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from './index.ts';
import type { Store } from './types.ts';
import type { TranscriptMessage } from '../core/transcript-message.ts';
import { parseSearchQuery } from '../search/index.ts';
import type { CompiledQuery } from '../search/index.ts';

const msg = (role: TranscriptMessage['role'], text: string, at = '2026-11-30T10:00:00Z'): TranscriptMessage => ({ role, text, at });
const q = (text: string): CompiledQuery => {
  const r = parseSearchQuery(text, Date.parse('2026-12-01T00:00:00Z'));
  if (!r.ok) throw new Error(r.message);
  return r.query;
};
const flush = () => new Promise((r) => setImmediate(r));
const put = (store: Store, path: string, sessionId: string, from: number, items: TranscriptMessage[], harness: 'claude' | 'codex' = 'claude') =>
  store.transcriptIndex.put({ path, harness, size: 1, mtimeMs: 1, offset: 1, summary: {}, messages: { sessionId, from, items } });

describe('search index in the store', () => {
  it('finds words, phrases and prefixes with session, role, time and position; tool output only with the setting', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    put(store, '/t/a.jsonl', 'sess-a', 0, [msg('user', 'please fix the flaky login test'), msg('tool-call', 'Edit /repo/src/billing.ts'), msg('tool-result', 'secret tool output')]);
    put(store, '/t/b.jsonl', 'sess-b', 0, [msg('assistant', 'the login page works', '2026-11-29T10:00:00Z')], 'codex');
    await flush();
    const hits = await store.search.query(q('flaky login'), 10);
    assert.deepEqual(hits.map((h) => [h.sessionId, h.harness, h.role, h.position]), [['sess-a', 'claude', 'user', 0]]);
    assert.equal(hits[0]?.atMs, Date.parse('2026-11-30T10:00:00Z'));
    assert.ok((hits[0]?.snippet ?? '').includes('\u0001flaky\u0002'), 'the match is marked');
    assert.equal((await store.search.query(q('"billing.ts"'), 10))[0]?.position, 1, 'a path is found as a phrase');
    assert.equal((await store.search.query(q('bill*'), 10)).length, 1);
    assert.equal((await store.search.query(q('login harness:codex'), 10))[0]?.sessionId, 'sess-b');
    assert.equal((await store.search.query(q('login role:assistant'), 10)).length, 1);
    assert.equal((await store.search.query(q('login since:2026-11-30'), 10)).length, 1);
    assert.equal((await store.search.query(q('secret'), 10)).length, 0, 'tool output is not indexed by default');

    await store.settings.update({ searchToolOutput: true });
    put(store, '/t/a.jsonl', 'sess-a', 5, [msg('tool-result', 'more secret output')]);
    await flush();
    const out = await store.search.query(q('secret'), 10);
    assert.deepEqual(out.map((h) => h.position), [3], 'positions continue after the earlier messages, tool results counted');
    store.close();
  });

  it('a read from byte 0 replaces what the path had; a removed path leaves; ties rank newer first', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    put(store, '/t/a.jsonl', 'sess-a', 0, [msg('user', 'alpha beta', '2026-11-01T00:00:00Z')]);
    put(store, '/t/c.jsonl', 'sess-c', 0, [msg('user', 'alpha beta', '2026-11-02T00:00:00Z')]);
    await flush();
    assert.deepEqual((await store.search.query(q('alpha'), 10)).map((h) => h.sessionId), ['sess-c', 'sess-a']);
    put(store, '/t/a.jsonl', 'sess-a', 0, [msg('user', 'gamma')]);
    await flush();
    assert.deepEqual((await store.search.query(q('alpha'), 10)).map((h) => h.sessionId), ['sess-c']);
    store.transcriptIndex.remove('/t/c.jsonl');
    await flush();
    assert.equal((await store.search.query(q('alpha'), 10)).length, 0);
    assert.deepEqual(await store.search.stats(), { messages: 1, files: 1 });
    store.close();
  });

  it('a re-read from a position replaces what was indexed at and after it, and keeps what is before', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const at = (position: number, items: TranscriptMessage[]) =>
      store.transcriptIndex.put({ path: '/db#s', harness: 'opencode', size: 0, mtimeMs: 1, offset: 0, summary: {}, messages: { sessionId: 's', from: 0, position, items } });
    at(0, [msg('user', 'kestrel prompt'), msg('assistant', 'half a reply')]);
    await flush();
    at(1, [msg('assistant', 'the whole reply mentions osprey'), msg('tool-call', 'read /repo/heron.ts')]);
    await flush();
    assert.deepEqual((await store.search.query(q('kestrel'), 10)).map((h) => h.position), [0]);
    assert.equal((await store.search.query(q('half'), 10)).length, 0, 'the stale copy of the streamed reply is gone');
    assert.deepEqual((await store.search.query(q('osprey'), 10)).map((h) => h.position), [1]);
    assert.deepEqual((await store.search.query(q('heron'), 10)).map((h) => [h.harness, h.position]), [['opencode', 2]]);
    assert.deepEqual(await store.search.stats(), { messages: 3, files: 1 });
    store.close();
  });

  it('FTS5 operators in a query are words, never syntax', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    put(store, '/t/a.jsonl', 'sess-a', 0, [msg('user', 'NEAR and OR text: column')]);
    await flush();
    for (const text of ['NEAR', 'OR', 'text:', '"and OR"', 'col*', 'NOT']) await store.search.query(q(text), 10);
    assert.equal((await store.search.query(q('NEAR OR'), 10)).length, 1);
    store.close();
  });
});
