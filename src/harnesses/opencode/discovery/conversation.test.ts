// OpenCode conversations for search and reading, on stores shaped like 1.18.33's with the rows a real
// run wrote (a prompt running a shell command approved at its permission ask, the tool's reply, a slow
// turn aborted by SIGTERM): what is indexed and what not, roles, positions shared by the index and the
// paged reader, a streamed reply replacing its stale words, an undo, a removed session.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import type { TranscriptIndex, TranscriptIndexEntry } from '../../../discovery/contract.ts';
import { openSqliteStore } from '../../../store/index.ts';
import type { Store } from '../../../store/types.ts';
import { parseSearchQuery } from '../../../search/index.ts';
import { createOpenCodeSource } from './source.ts';
import { assistantMessage, createFixtureStore, fixtureSessionId, userMessage, type FixtureStore } from './fixture-store.test-support.ts';

const flush = () => new Promise((r) => setImmediate(r));
const query = (text: string) => {
  const r = parseSearchQuery(text, Date.now());
  if (!r.ok) throw new Error(r.message);
  return r.query;
};
const T = 1796022479165;
const ID = fixtureSessionId(7);

/** The rows of a real TUI session (1.18.33): a shell command approved, its reply, a slow turn aborted. */
function realSession(st: FixtureStore): void {
  st.addSession({ id: ID, directory: '/home/dev/project-oc', title: 'Greet the fake user', createdMs: T, updatedMs: T + 22_000 });
  st.addMessage(ID, 'msg_22b48298700161sfx9qssMczl2', T + 74, userMessage(T + 74), T + 16_481);
  st.addPart(ID, 'msg_22b48298700161sfx9qssMczl2', 'prt_22b482992001k7ZVKyfyxEfA9Q', T + 109, { type: 'text', text: 'RUNCMD: touch /home/dev/scratch/oc-perm.txt' });
  st.addPart(ID, 'msg_22b48298700161sfx9qssMczl2', 'prt_22b482992001k7ZVKyfyxEfA9R', T + 110, { type: 'text', text: 'Called the Read tool: attached file body', synthetic: true });
  st.addMessage(ID, 'msg_22b4829e4001cKI3GMmE1l6ukD', T + 168, assistantMessage(T + 168, { completedMs: T + 15_584, finish: 'tool-calls' }), T + 15_586);
  st.addPart(ID, 'msg_22b4829e4001cKI3GMmE1l6ukD', 'prt_22b483692001SNwFpu520Q7u5R', T + 3413, { snapshot: '5d65d838', type: 'step-start' });
  st.addPart(ID, 'msg_22b4829e4001cKI3GMmE1l6ukD', 'prt_22b483692001SNwFpu520Q7u5S', T + 3414, { type: 'reasoning', text: 'pondering privately' });
  st.addPart(ID, 'msg_22b4829e4001cKI3GMmE1l6ukD', 'prt_22b4836a3001XwRmSy8WbDNjyw', T + 3430, {
    type: 'tool', tool: 'bash', callID: 'call_mx2xewsd4e8w058m',
    state: { status: 'completed', input: { command: 'touch /home/dev/scratch/oc-perm.txt', description: 'run command' }, output: 'zebrafish output', title: 'touch', time: { start: T + 3451, end: T + 15_350 } },
  });
  st.addPart(ID, 'msg_22b4829e4001cKI3GMmE1l6ukD', 'prt_22b4865bb001QJRRg7r6gF6Cij', T + 15_487, { reason: 'tool-calls', type: 'step-finish', tokens: { total: 357, input: 350, output: 7 }, cost: 0 });
  st.addMessage(ID, 'msg_22b486623001r5cH8GEmt2MlD8', T + 15_590, assistantMessage(T + 15_590, { completedMs: T + 16_326, finish: 'stop' }), T + 16_326);
  st.addPart(ID, 'msg_22b486623001r5cH8GEmt2MlD8', 'prt_22b486766001320fQeWEiAikRj', T + 15_913, { type: 'text', text: 'tool finished (req 251)' });
  st.addMessage(ID, 'msg_22b48802f001JlxYj9bzvz2ojo', T + 22_258, userMessage(T + 22_258), T + 22_462);
  st.addPart(ID, 'msg_22b48802f001JlxYj9bzvz2ojo', 'prt_22b488032001QWA216mzOR0fgT', T + 22_267, { type: 'text', text: 'SLOW turn to be killed' });
  st.addMessage(ID, 'msg_22b488050001h0I0UrUfxyuX1u', T + 22_292, assistantMessage(T + 22_292, { completedMs: T + 26_355, error: 'MessageAbortedError' }), T + 26_355);
  st.addPart(ID, 'msg_22b488050001h0I0UrUfxyuX1u', 'prt_22b488139001FbF0fVGxC47jEt', T + 22_524, { type: 'text', text: 'hi from ' });
}

/** The index with every put recorded (to see where a re-read started). */
function recording(index: TranscriptIndex): TranscriptIndex & { puts: TranscriptIndexEntry[] } {
  const puts: TranscriptIndexEntry[] = [];
  return { ...index, put: (e) => { puts.push(e); index.put(e); }, puts };
}

/** The messages a listing handed the search index (undefined: none). */
type Listed = TranscriptIndexEntry['messages'];

function setup(): { dir: string; st: FixtureStore; store: Store; index: ReturnType<typeof recording>; list: () => Promise<Listed>; hits: (q: string) => Promise<[string, number][]>; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-conv-'));
  const st = createFixtureStore(dir);
  const store = openSqliteStore({ path: ':memory:' });
  const index = recording(store.transcriptIndex);
  const source = createOpenCodeSource({ home: dir, env: {}, proc: createFakeProc(), index });
  return {
    dir, st, store, index,
    list: async () => {
      const from = index.puts.length;
      await source.list();
      await flush();
      return index.puts.slice(from).find((e) => e.messages)?.messages;
    },
    // By position: the order of the conversation, not the ranking.
    hits: async (q) => (await store.search.query(query(q), 50)).map((h): [string, number] => [h.role, h.position]).sort((a, b) => a[1] - b[1]),
    cleanup: () => { st.close(); store.close(); fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

describe('opencode conversation (search and reading)', () => {
  it('a real session: prompts, replies, tool call with its command, output only as a tool-result; reasoning, steps, synthetic text and an abort are not messages', async () => {
    const t = setup();
    try {
      realSession(t.st);
      await t.list();
      const source = createOpenCodeSource({ home: t.dir, env: {}, proc: createFakeProc() });
      const page = await source.messages!(ID, 0, 50);
      assert.ok(page);
      assert.deepEqual(page.messages.map((m) => [m.position, m.role, m.text]), [
        [0, 'user', 'RUNCMD: touch /home/dev/scratch/oc-perm.txt'],
        [1, 'tool-call', 'bash touch /home/dev/scratch/oc-perm.txt'],
        [2, 'tool-result', 'zebrafish output'],
        [3, 'assistant', 'tool finished (req 251)'],
        [4, 'user', 'SLOW turn to be killed'],
        [5, 'assistant', 'hi from'],
      ]);
      assert.equal(page.messages[0]?.at, new Date(T + 74).toISOString());
      assert.deepEqual([page.total, page.next], [6, null]);
      assert.deepEqual(await t.hits('RUNCMD'), [['user', 0]]);
      assert.deepEqual(await t.hits('"oc-perm.txt"'), [['user', 0], ['tool-call', 1]]);
      assert.deepEqual(await t.hits('req 251'), [['assistant', 3]]);
      assert.deepEqual(await t.hits('zebrafish'), [], 'tool output is not indexed without searchToolOutput');
      for (const word of ['pondering', 'attached', 'MessageAbortedError', 'snapshot']) assert.deepEqual(await t.hits(word), [], word);
      assert.deepEqual((await source.messages!(ID, 4, 1))?.next, 5);
      assert.equal(await source.messages!(fixtureSessionId(99), 0, 10), null, 'a session the store does not hold');
    } finally {
      t.cleanup();
    }
  });

  it('a streamed reply is re-read from its own position: its stale words go, earlier messages are not read again', async () => {
    const t = setup();
    try {
      realSession(t.st);
      await t.list();
      assert.deepEqual(await t.hits('hi from'), [['assistant', 5]]);
      // A new turn: the prompt, then its reply streaming in.
      t.st.addMessage(ID, 'msg_3', T + 40_000, userMessage(T + 40_000));
      t.st.addPart(ID, 'msg_3', 'prt_3', T + 40_001, { type: 'text', text: 'describe the capybara' });
      t.st.addMessage(ID, 'msg_4', T + 40_100, assistantMessage(T + 40_100));
      t.st.addPart(ID, 'msg_4', 'prt_4', T + 40_101, { type: 'text', text: 'the capy' });
      t.st.touchSession(ID, T + 40_101);
      // From the last message indexed: it was updated at the mark (an update in the same millisecond is never missed).
      assert.deepEqual((await t.list())?.position, 5, 'read on from the end of what was indexed');
      assert.deepEqual(await t.hits('capy'), [['assistant', 7]]);
      t.st.updatePart('prt_4', T + 41_000, { type: 'text', text: 'the capybara is a large rodent' });
      t.st.updateMessage('msg_4', T + 41_000, assistantMessage(T + 40_100, { completedMs: T + 41_000, finish: 'stop' }));
      const last = await t.list();
      assert.equal(last?.position, 7, 'only the updated reply is read again');
      assert.deepEqual(last?.items.map((m) => m.text), ['the capybara is a large rodent']);
      assert.deepEqual(await t.hits('capy'), [], 'no stale copy of the streamed words');
      assert.deepEqual(await t.hits('rodent'), [['assistant', 7]]);
      assert.deepEqual(await t.hits('capybara'), [['user', 6], ['assistant', 7]]);
      const source = createOpenCodeSource({ home: t.dir, env: {}, proc: createFakeProc() });
      const page = await source.messages!(ID, 6, 10);
      assert.deepEqual(page?.messages.map((m) => [m.position, m.text]), [[6, 'describe the capybara'], [7, 'the capybara is a large rodent']]);
      // Nothing changed: nothing is read again.
      assert.equal(await t.list(), undefined);
    } finally {
      t.cleanup();
    }
  });

  it('an undo that deletes messages reads the session again from its start; a removed session leaves the index', async () => {
    const t = setup();
    try {
      realSession(t.st);
      await t.list();
      t.st.db.prepare("DELETE FROM part WHERE message_id IN ('msg_22b48802f001JlxYj9bzvz2ojo', 'msg_22b488050001h0I0UrUfxyuX1u')").run();
      t.st.db.prepare("DELETE FROM message WHERE id IN ('msg_22b48802f001JlxYj9bzvz2ojo', 'msg_22b488050001h0I0UrUfxyuX1u')").run();
      t.st.touchSession(ID, T + 50_000);
      assert.equal((await t.list())?.position, 0);
      assert.deepEqual(await t.hits('SLOW'), []);
      assert.deepEqual(await t.hits('req 251'), [['assistant', 3]]);
      t.st.db.prepare('DELETE FROM session WHERE id = ?').run(ID);
      await t.list();
      assert.deepEqual(await t.hits('req 251'), []);
      assert.deepEqual(await t.store.search.stats(), { messages: 0, files: 0 });
    } finally {
      t.cleanup();
    }
  });

  it('a store summarised before search (no search mark) is read once more at the next start, though unchanged', async () => {
    const t = setup();
    try {
      realSession(t.st);
      await t.list();
      // What an older Muster left in the index: the same entries, without the search mark.
      for (const e of t.store.transcriptIndex.list('opencode')) {
        const { search: _dropped, ...older } = (e.summary ?? {}) as Record<string, unknown>;
        t.store.transcriptIndex.put({ ...e, summary: older });
      }
      await flush();
      const restarted = recording(t.store.transcriptIndex);
      await createOpenCodeSource({ home: t.dir, env: {}, proc: createFakeProc(), index: restarted }).list();
      const m = restarted.puts.find((e) => e.messages)?.messages;
      assert.equal(m?.position, 0);
      assert.equal(m?.items.length, 6);
      // Read once: the next start carries the summaries over.
      const again = recording(t.store.transcriptIndex);
      await createOpenCodeSource({ home: t.dir, env: {}, proc: createFakeProc(), index: again }).list();
      assert.deepEqual(again.puts, []);
    } finally {
      t.cleanup();
    }
  });

  it('tool output is indexed with searchToolOutput on; a reply that failed is a system message', async () => {
    const t = setup();
    try {
      await t.store.settings.update({ searchToolOutput: true });
      realSession(t.st);
      t.st.addMessage(ID, 'msg_5', T + 60_000, assistantMessage(T + 60_000, { completedMs: T + 60_100, error: 'APIError' }));
      await t.list();
      assert.deepEqual(await t.hits('zebrafish'), [['tool-result', 2]]);
      assert.deepEqual(await t.hits('APIError'), [['system', 6]]);
    } finally {
      t.cleanup();
    }
  });

  it('a malformed part is skipped; a long tool input is cut; values of any JSON type do not break a message', async () => {
    const t = setup();
    try {
      const id = fixtureSessionId(7);
      t.st.addSession({ id, directory: '/p', title: 'odd rows', createdMs: T, updatedMs: T + 10 });
      t.st.addMessage(id, 'msg_a', T + 1, userMessage(T + 1));
      t.st.addPart(id, 'msg_a', 'prt_a1', T + 2, 'not json at all {');
      t.st.addPart(id, 'msg_a', 'prt_a2', T + 3, { type: 'text', text: 'rename the wombat table', synthetic: false, ignored: 0 });
      t.st.addMessage(id, 'msg_b', T + 4, assistantMessage(T + 4, { completedMs: T + 9, finish: 'stop' }));
      t.st.addPart(id, 'msg_b', 'prt_b1', T + 5, { type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: `echo ${'y'.repeat(5000)}`, path: { odd: true } }, output: 'done' } });
      t.st.addPart(id, 'msg_b', 'prt_b2', T + 6, { type: 'text', text: 42 });
      await t.list();
      const source = createOpenCodeSource({ home: t.dir, env: {}, proc: createFakeProc() });
      const page = await source.messages!(id, 0, 50);
      assert.deepEqual(page?.messages.map((m) => [m.role, m.text.length > 100 ? `${m.text.slice(0, 10)}…${m.text.length}` : m.text]), [
        ['user', 'rename the wombat table'],
        ['tool-call', `bash echo …${'bash '.length + 2000}`], // the command cut at 2,000 characters; a path that is no string left out
        ['tool-result', 'done'],
        ['assistant', '42'],
      ]);
      assert.deepEqual(await t.hits('wombat'), [['user', 0]]);
    } finally {
      t.cleanup();
    }
  });
});

