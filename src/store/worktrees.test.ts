import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from './sqlite.ts';

test('worktree records survive a reopen, newest first; the same path again replaces its record', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'muster-worktrees-store-'));
  try {
    const path = join(dir, 'm.db');
    let store = openSqliteStore({ path });
    assert.ok(store.schemaVersion >= 7);
    await store.worktrees.put({ path: '/r/app.worktrees/a', repo: '/r/app', branch: 'a', newBranch: true, createdAt: '2026-01-01T00:00:00.000Z' });
    await store.worktrees.put({ path: '/r/app.worktrees/b', repo: '/r/app', branch: 'b', newBranch: false, createdAt: '2026-01-02T00:00:00.000Z' });
    store.close();
    store = openSqliteStore({ path });
    assert.deepEqual((await store.worktrees.list()).map((w) => [w.branch, w.newBranch]), [['b', false], ['a', true]]);
    await store.worktrees.put({ path: '/r/app.worktrees/a', repo: '/r/app', branch: 'a', newBranch: false, createdAt: '2026-01-03T00:00:00.000Z' });
    assert.deepEqual((await store.worktrees.list()).map((w) => [w.branch, w.newBranch]), [['a', false], ['b', false]]);
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
