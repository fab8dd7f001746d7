import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assistantMessage, createFixtureStore, fixtureSessionId, userMessage } from './fixture-store.test-support.ts';
import { readOpenCodeTail } from './tail.ts';

test('the tail of an OpenCode session: text parts per message, oldest first, tool-only messages left out', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-tail-'));
  try {
    const st = createFixtureStore(home);
    const id = fixtureSessionId(0x33);
    const t = Date.now() - 60_000;
    st.addSession({ id, directory: home, title: 'tail', createdMs: t });
    st.addMessage(id, 'msg_1', t + 1, userMessage(t + 1));
    st.addPart(id, 'msg_1', 'prt_1', t + 1, { type: 'text', text: 'fix the test' });
    st.addMessage(id, 'msg_2', t + 2, assistantMessage(t + 2, { completedMs: t + 3, finish: 'stop' }));
    st.addPart(id, 'msg_2', 'prt_2', t + 2, { type: 'tool', tool: 'bash', state: { status: 'completed', output: 'x'.repeat(10_000) } });
    st.addMessage(id, 'msg_3', t + 4, assistantMessage(t + 4, { completedMs: t + 5, finish: 'stop' }));
    st.addPart(id, 'msg_3', 'prt_3', t + 4, { type: 'text', text: 'Fixed: ' });
    st.addPart(id, 'msg_3', 'prt_4', t + 4, { type: 'text', text: 'the flaky login test.' });
    st.close();
    const tail = readOpenCodeTail(path.join(home, 'opencode.db'), id, 10);
    assert.deepEqual(tail.map((m) => [m.role, m.text]), [['user', 'fix the test'], ['assistant', 'Fixed: the flaky login test.']]);
    assert.equal(tail[1]?.at, new Date(t + 4).toISOString());
    assert.deepEqual(readOpenCodeTail(path.join(home, 'nope.db'), id, 10), [], 'no store: no tail, no throw');
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
