import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { assistantMessage, createFixtureStore, fixtureSessionId, userMessage } from './fixture-store.test-support.ts';
import { createOpenCodeSource } from './source.ts';

const NOW = 1_796_022_600_000;

test('opencode usage records: one per assistant message, read on from the last mark when the session changes, its cost when above 0', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-usage-'));
  try {
    const st = createFixtureStore(home);
    const id = fixtureSessionId(1);
    st.addSession({ id, directory: '/home/dev/p', title: 'usage', createdMs: NOW - 9000 });
    st.addMessage(id, 'msg_1', NOW - 8000, userMessage(NOW - 8000));
    st.addMessage(id, 'msg_2', NOW - 7900, { ...assistantMessage(NOW - 7900, { completedMs: NOW - 7000, finish: 'stop' }), modelID: 'claude-sonnet-4-5', cost: 0.5 });
    const index = createMemoryTranscriptIndex();
    const src = createOpenCodeSource({ home, env: {}, proc: createFakeProc(), http: { view: async () => null, abort: async () => false, prompt: async () => false }, index });
    await src.list();
    st.addMessage(id, 'msg_3', NOW - 5000, userMessage(NOW - 5000));
    st.addMessage(id, 'msg_4', NOW - 4900, assistantMessage(NOW - 4900, { completedMs: NOW - 4000, finish: 'stop' }));
    st.touchSession(id, NOW - 4000);
    await src.list();
    await src.list();
    st.close();
    const recs = index.usage();
    const byKey = new Map(recs.map((r) => [r.key, r]));
    assert.deepEqual([...byKey.values()].map((r) => [r.key, r.model, r.tokens.input, r.tokens.output, r.costUsd, r.at]), [
      [`${id}:msg_2`, 'claude-sonnet-4-5', 10, 2, 0.5, NOW - 7900],
      [`${id}:msg_4`, 'fake-model', 10, 2, null, NOW - 4900],
    ]);
    assert.ok(recs.filter((r) => r.key.endsWith('msg_2')).length <= 2, 'the first message is not read again at every turn');
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
