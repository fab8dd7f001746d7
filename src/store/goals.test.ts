// The SQLite goals repository: round trip, one goal per session, compare-and-set updates, migration 6.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStore } from './sqlite.ts';
import { createGoals, type Goal } from '../goals/index.ts';

const S1 = '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';

it('stores goals durably across a reopen, one per session, with CAS on the status', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-goals-store-'));
  try {
    const file = path.join(dir, 'muster.db');
    let store = openSqliteStore({ path: file });
    const goals = createGoals({ repo: store.goals, settings: async () => ({}), auditorFor: () => { throw new Error('unused'); }, publish: () => {} });
    const first = await goals.set({ sessionId: S1, harness: 'claude', objective: 'a', tokenBudget: 'off', maxTurns: 4 });
    const second = await goals.set({ sessionId: S1, harness: 'claude', objective: 'b', tokenBudget: 900 });
    assert.equal(await store.goals.get(first.id), undefined, 'a new goal replaces the session\'s old one');
    const withAudit: Goal = { ...second, lastAudit: { at: 'x', verdict: { allDone: false, remaining: ['r'], needsUser: false }, error: null, auditor: 'cli:claude' } };
    assert.equal(await store.goals.update(withAudit, 'paused'), false, 'CAS refuses a stale status');
    assert.equal(await store.goals.update(withAudit, 'active'), true);
    store.close();

    store = openSqliteStore({ path: file });
    assert.ok(store.schemaVersion >= 6);
    const back = await store.goals.getBySession(S1);
    assert.deepEqual(back, withAudit);
    assert.equal(back?.tokenBudget, 900);
    assert.deepEqual((await store.goals.list({ status: 'active' })).map((g) => g.id), [second.id]);
    assert.equal(await store.goals.remove(second.id), true);
    assert.equal(await store.goals.remove(second.id), false);
    store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
