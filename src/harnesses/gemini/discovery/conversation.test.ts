// Gemini conversations for search and reading, on real chat files (fixtures/chats/, written by Gemini
// CLI 0.61.0): what is indexed and what not, roles, positions shared by the index and the paged reader,
// a resume's files merged, a reply rewritten under its id and a rewind leaving no stale hits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { openSqliteStore } from '../../../store/index.ts';
import { parseSearchQuery } from '../../../search/index.ts';
import { scanChats } from './chat-scan.ts';
import { geminiMessagesOf, readGeminiConversation } from './conversation.ts';
import { createGeminiSource } from './source.ts';
import { INTERACTIVE, INTERACTIVE_FILE, PRINTED, PRINTED_FILES, tempGeminiHome } from './gemini-fixtures.test-support.ts';

const line = (r: object): string => `${JSON.stringify(r)}\n`;
const flush = () => new Promise((r) => setImmediate(r));
const query = (text: string) => {
  const r = parseSearchQuery(text, Date.now());
  if (!r.ok) throw new Error(r.message);
  return r.query;
};

describe('gemini conversation (search and reading), on real chat files', () => {
  it('an interactive tool turn: prompt, tool call with its command, its output as a tool-result, the reply; no session context', () => {
    const h = tempGeminiHome([INTERACTIVE_FILE]);
    try {
      const messages = readGeminiConversation([path.join(h.chats, INTERACTIVE_FILE)]);
      assert.deepEqual(messages.map((m) => [m.role, m.text]), [
        ['user', 'RUNCMD: echo interactive > i.txt'],
        ['tool-call', 'run_shell_command echo interactive > i.txt'],
        ['tool-result', 'Output: (empty)\nProcess Group PGID: 25039'],
        ['assistant', 'tool done'],
      ], 'the reply written twice under one id is one message, with its tool call, at its first place');
      assert.equal(messages[0]?.at, '2026-12-01T12:51:41.850Z');
    } finally {
      h.cleanup();
    }
  });

  it('thoughts, hook and session context are not messages; info/warning/error records are system', () => {
    assert.deepEqual(geminiMessagesOf({ id: 'g', type: 'gemini', content: [{ text: 'musing', thought: true }, { text: 'answer' }], thoughts: [{ subject: 's', description: 'secret thought' }] }).map((m) => m.text), ['answer']);
    assert.deepEqual(geminiMessagesOf({ id: 'u', type: 'user', content: [{ text: '<hook_context>x</hook_context>' }] }), []);
    assert.deepEqual(geminiMessagesOf({ id: 'e', type: 'error', content: 'quota exceeded' }).map((m) => m.role), ['system']);
    assert.deepEqual(geminiMessagesOf({ id: 'g', type: 'gemini', content: '', toolCalls: [{ name: 'read_file', args: { absolute_path: '/repo/src/billing.ts' } }] }).map((m) => m.text), ['read_file /repo/src/billing.ts']);
  });

  it('a resumed session: both files are one conversation, the resume\'s list rewrite repeats nothing, the page reads what the index holds', async () => {
    const h = tempGeminiHome(PRINTED_FILES);
    try {
      const index = createMemoryTranscriptIndex();
      scanChats(h.home, index);
      const [first, second] = PRINTED_FILES.map((f) => path.join(h.chats, f)) as [string, string];
      const indexed = index.messages(first);
      assert.deepEqual(indexed.map((m) => [m.role, m.text]), [
        ['user', 'hello there'], ['assistant', 'hi from fake model'], ['user', 'second turn'], ['assistant', 'hi from fake model'],
      ]);
      assert.deepEqual(index.messages(second), [], 'the session is indexed under its oldest file only');
      const page = await createGeminiSource({ home: h.home, proc: createFakeProc(), index }).messages!(PRINTED, 1, 2);
      assert.deepEqual(page, {
        messages: indexed.slice(1, 3).map((m, i) => ({ ...m, position: 1 + i })),
        total: 4, next: 3,
      });
    } finally {
      h.cleanup();
    }
  });

  it('a reply rewritten under its id and a rewind leave no stale hits; positions stay those of the reader', async () => {
    const h = tempGeminiHome([INTERACTIVE_FILE]);
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const file = path.join(h.chats, INTERACTIVE_FILE);
      const source = createGeminiSource({ home: h.home, proc: createFakeProc(), index: store.transcriptIndex });
      await source.list();
      await flush();
      assert.deepEqual((await store.search.query(query('tool done'), 10)).map((r) => [r.sessionId, r.harness, r.role, r.position]), [[INTERACTIVE, 'gemini', 'assistant', 3]]);
      // Gemini streams a reply, then writes it again under its id; the first copy's words are gone.
      fs.appendFileSync(file, line({ id: 'u2', timestamp: '2026-12-01T12:52:00.000Z', type: 'user', content: [{ text: 'tell me about the pelican' }] })
        + line({ id: 'r2', timestamp: '2026-12-01T12:52:01.000Z', type: 'gemini', content: 'half written flamingo', model: 'gemini-fake' })
        + line({ $set: { lastUpdated: '2026-12-01T12:52:01.000Z' } }));
      await source.list();
      await flush();
      assert.equal((await store.search.query(query('flamingo'), 10)).length, 1);
      fs.appendFileSync(file, line({ id: 'r2', timestamp: '2026-12-01T12:52:01.000Z', type: 'gemini', content: 'the pelican answer', model: 'gemini-fake', toolCalls: [{ name: 'read_file', args: { file_path: 'notes/pelican.md' } }] }));
      await source.list();
      await flush();
      assert.equal((await store.search.query(query('flamingo'), 10)).length, 0, 'the rewritten reply left no stale hit');
      const hits = await store.search.query(query('pelican'), 10);
      const page = await source.messages!(INTERACTIVE, 0, 50);
      assert.ok(page);
      assert.deepEqual(page.messages.slice(4).map((m) => [m.position, m.role, m.text]), [
        [4, 'user', 'tell me about the pelican'], [5, 'assistant', 'the pelican answer'], [6, 'tool-call', 'read_file notes/pelican.md'],
      ]);
      for (const hit of hits) assert.match(page.messages[hit.position]?.text ?? '', /pelican/i, `hit at ${hit.position} opens its message`);
      assert.deepEqual(hits.map((x) => x.position).sort(), [4, 5, 6]);
      // A rewind drops the turn from the conversation and from the index.
      fs.appendFileSync(file, line({ $rewindTo: 'u2' }));
      await source.list();
      await flush();
      assert.equal((await store.search.query(query('pelican'), 10)).length, 0);
      assert.equal((await source.messages!(INTERACTIVE, 0, 50))?.total, 4);
      // The file removed: the session leaves the index.
      fs.rmSync(file);
      await source.list();
      await flush();
      assert.equal((await store.search.query(query('tool done'), 10)).length, 0);
      assert.equal(await source.messages!(INTERACTIVE, 0, 50), null);
    } finally {
      store.close();
      h.cleanup();
    }
  });

  it('only edits of the conversation re-index it: a lastUpdated patch alone does not', () => {
    const h = tempGeminiHome([INTERACTIVE_FILE]);
    try {
      const file = path.join(h.chats, INTERACTIVE_FILE);
      const index = createMemoryTranscriptIndex();
      const puts: boolean[] = [];
      const spy = { ...index, put: (e: Parameters<typeof index.put>[0]) => { puts.push(e.messages !== undefined); index.put(e); } };
      scanChats(h.home, spy);
      fs.appendFileSync(file, line({ $set: { lastUpdated: '2026-12-01T12:59:00.000Z' } }));
      scanChats(h.home, spy);
      assert.deepEqual(puts, [true, false]);
      assert.equal(index.messages(file).length, 4);
    } finally {
      h.cleanup();
    }
  });
});
