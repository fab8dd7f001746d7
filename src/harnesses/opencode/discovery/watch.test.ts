import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SourceChange } from '../../../discovery/contract.ts';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createFixtureStore, fixtureSessionId } from './fixture-store.test-support.ts';
import { createOpenCodeSource } from './source.ts';

/** Resolves when `pred` holds, polling every 20 ms; rejects after `ms`. */
async function until(pred: () => boolean, ms = 3000): Promise<void> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a commit to the store notifies once per burst; the disposer stops notifications', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-watch-'));
  const st = createFixtureStore(home);
  const src = createOpenCodeSource({ home, env: {}, proc: createFakeProc() });
  const seen: SourceChange[] = [];
  const dispose = src.watch((c) => seen.push(c));
  for (let i = 0; i < 5; i++) st.addSession({ id: fixtureSessionId(100 + i), directory: '/p', createdMs: i });
  await until(() => seen.length >= 1);
  assert.deepEqual(seen[0], { harness: 'opencode', ids: [] });
  await new Promise((r) => setTimeout(r, 150));
  assert.ok(seen.length <= 2, `debounced (${seen.length})`);
  await dispose();
  const n = seen.length;
  st.addSession({ id: fixtureSessionId(200), directory: '/p', createdMs: 1 });
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(seen.length, n);
  st.close();
});

test('a data directory that does not exist yet is waited for', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-watch2-'));
  const home = path.join(root, 'share', 'opencode');
  const src = createOpenCodeSource({ home, env: {}, proc: createFakeProc() });
  let calls = 0;
  const dispose = src.watch(() => { calls++; });
  try {
    fs.mkdirSync(path.join(root, 'share'));
    await new Promise((r) => setTimeout(r, 100)); // one step at a time: the watcher must follow
    fs.mkdirSync(home);
    await until(() => calls >= 1);
    const st = createFixtureStore(home);
    st.addSession({ id: fixtureSessionId(300), directory: '/p', createdMs: 1 });
    const before = calls;
    st.addSession({ id: fixtureSessionId(301), directory: '/p', createdMs: 2 });
    await until(() => calls > before);
    st.close();
    assert.equal((await src.list()).length, 2);
  } finally {
    await dispose();
  }
});
