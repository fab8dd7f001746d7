import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from './sqlite.ts';
import { createLaunchService, newLaunchId } from '../launch/index.ts';
import { createHookStatus } from '../hub/index.ts';
import { createEventBus } from '../events/index.ts';

const SID = '44444444-4444-4444-8444-444444444444';

test('launch records survive a reopen; a session id, once linked, is kept; names reach the overlay', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'muster-launches-'));
  try {
    const path = join(dir, 'm.db');
    let store = openSqliteStore({ path });
    const overlay = createHookStatus();
    const svc = createLaunchService({ repo: store.launches, overlay, bus: createEventBus() });
    const id = newLaunchId();
    await svc.register({ id, harness: 'opencode', name: 'demo', cwd: '/w', sessionId: null, pid: null });
    await assert.rejects(svc.register({ id, harness: 'opencode', name: null, cwd: '/w', sessionId: null, pid: null }), /already registered/);
    await assert.rejects(svc.register({ id: 'nope', harness: 'pi', name: null, cwd: '/w', sessionId: null, pid: null }), /not a launch id/);
    await svc.update(id, { pid: 1234 });
    await svc.link(id, 'opencode', SID); // a UUID is not an OpenCode id: ignored
    assert.equal((await svc.get(id))?.sessionId, null);
    await svc.link(id, 'opencode', 'ses_0123456789abcdefABCDEFGHIJ');
    await svc.link(id, 'opencode', 'ses_ZZZZZZZZZZZZZZZZZZZZZZZZZZ');
    assert.equal((await svc.get(id))?.sessionId, 'ses_0123456789abcdefABCDEFGHIJ', 'first link wins');
    await svc.update(id, { exitCode: 3, endedAt: new Date().toISOString() });
    store.close();
    store = openSqliteStore({ path });
    const [r] = await store.launches.list();
    assert.equal(r?.id, id);
    assert.equal(r?.pid, 1234);
    assert.equal(r?.exitCode, 3);
    assert.equal(r?.name, 'demo');
    assert.deepEqual(await store.launches.list({ running: true }), []);
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('onBound: told once per launch, when its session id is first known (register, update or link), before the call returns', async () => {
  const store = openSqliteStore({ path: ':memory:' });
  const bound: [string, string | null][] = [];
  const svc = createLaunchService({ repo: store.launches, overlay: createHookStatus(), bus: createEventBus(), onBound: async (r) => void bound.push([r.id, r.sessionId]) });
  const [a, b, c] = [newLaunchId(), newLaunchId(), newLaunchId()];
  await svc.register({ id: a, harness: 'claude', name: null, cwd: '/w', sessionId: SID, pid: null });
  await svc.register({ id: b, harness: 'pi', name: null, cwd: '/w', sessionId: null, pid: null });
  await svc.register({ id: c, harness: 'pi', name: null, cwd: '/w', sessionId: null, pid: null });
  assert.deepEqual(bound, [[a, SID]]);
  await svc.link(b, 'pi', SID);
  await svc.link(b, 'pi', '55555555-5555-4555-8555-555555555555');
  await svc.update(c, { pid: 7 });
  await svc.update(c, { sessionId: SID });
  await svc.update(c, { sessionId: SID });
  assert.deepEqual(bound, [[a, SID], [b, SID], [c, SID]]);
  store.close();
});
