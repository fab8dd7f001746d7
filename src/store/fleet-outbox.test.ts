// The fleet outbox (migration 9): local first, in order, each change once; an unchanged record is not
// queued again; a queued change survives a restart until it is acknowledged; numbers are never reused.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStore } from './sqlite.ts';

const withStore = (fn: (file: string) => void) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-outbox-'));
  try {
    fn(path.join(dir, 'muster.db'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

it('queues changes in order, numbered, and skips an upsert equal to the last one queued', () => {
  const store = openSqliteStore({ path: ':memory:', clock: () => Date.UTC(2026, 0, 1) });
  const o = store.fleetOutbox;
  assert.equal(o.enqueue([
    { kind: 'session', key: 'claude:1', op: 'upsert', data: { status: 'idle' } },
    { kind: 'page', key: 'pag_1', op: 'upsert', data: { status: 'pending' } },
    { kind: 'session', key: 'claude:1', op: 'upsert', data: { status: 'idle' } },
    { kind: 'session', key: 'claude:1', op: 'upsert', data: { status: 'working' } },
  ]), 3);
  const q = o.peek(10);
  assert.deepEqual(q.map((e) => [e.seq, e.kind, e.key, (e.data as { status: string }).status]), [[1, 'session', 'claude:1', 'idle'], [2, 'page', 'pag_1', 'pending'], [3, 'session', 'claude:1', 'working']]);
  assert.equal(q[0]?.at, '2026-01-01T00:00:00.000Z');
  assert.equal(o.enqueue([{ kind: 'session', key: 'claude:1', op: 'upsert', data: { status: 'working' } }]), 0, 'the same state again is no change');
  assert.deepEqual(o.stats(), { queued: 3, oldestAt: '2026-01-01T00:00:00.000Z', lastSeq: 3 });
  store.close();
});

it('a delete is queued only for a record the fleet was told of, and forgets it', () => {
  const store = openSqliteStore({ path: ':memory:' });
  const o = store.fleetOutbox;
  assert.equal(o.enqueue([{ kind: 'goal', key: 'never', op: 'delete', data: null }]), 0);
  o.enqueue([{ kind: 'goal', key: 's1', op: 'upsert', data: { id: 'g' } }]);
  assert.deepEqual(o.mirroredKeys('goal'), ['s1']);
  assert.equal(o.enqueue([{ kind: 'goal', key: 's1', op: 'delete', data: null }]), 1);
  assert.deepEqual(o.mirroredKeys('goal'), []);
  assert.equal(o.enqueue([{ kind: 'goal', key: 's1', op: 'upsert', data: { id: 'g' } }]), 1, 'after a delete, the same record is new again');
  assert.deepEqual(o.peek(10).map((e) => e.op), ['upsert', 'delete', 'upsert']);
  store.close();
});

it('ack removes what the database committed; the rest survives a restart; numbers are never reused', () => {
  withStore((file) => {
    let store = openSqliteStore({ path: file });
    store.fleetOutbox.enqueue([1, 2, 3, 4].map((n) => ({ kind: 'page' as const, key: `p${n}`, op: 'upsert' as const, data: { n } })));
    store.fleetOutbox.ack(2);
    store.close();
    store = openSqliteStore({ path: file });
    assert.deepEqual(store.fleetOutbox.peek(10).map((e) => e.seq), [3, 4], 'unacknowledged changes are still queued after a restart');
    assert.equal(store.fleetOutbox.enqueue([{ kind: 'page', key: 'p4', op: 'upsert', data: { n: 4 } }]), 0, 'the mirror survives too');
    store.fleetOutbox.clear();
    assert.deepEqual(store.fleetOutbox.stats(), { queued: 0, oldestAt: null, lastSeq: 4 });
    store.fleetOutbox.enqueue([{ kind: 'page', key: 'p4', op: 'upsert', data: { n: 4 } }]);
    assert.deepEqual(store.fleetOutbox.peek(10).map((e) => e.seq), [5], 'after clear (leaving), everything is queued again, numbered on');
    store.close();
  });
});
