// The publisher against a stand-in database port: batches in order, a batch leaves the outbox only once
// committed, a failure keeps it and retries, a missing host row is registered again, and nothing is
// sent while disconnected. (The statement itself is run against PostgreSQL in the fleet tier.)
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createPublisher } from './publisher.ts';
import { createBackoff } from './backoff.ts';
import { openSqliteStore } from '../store/index.ts';
import type { FleetDb } from './pg-port.ts';

const HOST = 'hst_aaaaaaaaaaaaaaaaaaaaaaaaaa';

function fakeDb(fail: (call: number) => Error | null) {
  const batches: { seqs: number[]; hello: { s: number } }[] = [];
  let calls = 0;
  const db: FleetDb = {
    async query<R>(_sql: string, params?: unknown[]) {
      const err = fail(calls++);
      if (err) throw err;
      const rows = JSON.parse(params?.[1] as string) as { seq: number }[];
      batches.push({ seqs: rows.map((r) => r.seq), hello: JSON.parse(params?.[3] as string) as { s: number } });
      return [] as R[];
    },
    transaction: () => Promise.reject(new Error('unused')),
    close: async () => {},
  };
  return { db, batches };
}

const fill = (store: ReturnType<typeof openSqliteStore>, n: number) =>
  store.fleetOutbox.enqueue(Array.from({ length: n }, (_, i) => ({ kind: 'page' as const, key: `p${i}`, op: 'upsert' as const, data: { i } })));

it('publishes the outbox in order, in batches, acknowledging each only after it committed', async () => {
  const store = openSqliteStore({ path: ':memory:' });
  fill(store, 7);
  const { db, batches } = fakeDb(() => null);
  const p = createPublisher({ outbox: store.fleetOutbox, hostId: HOST, db: () => db, hello: () => ({ n: 'A', a: true }), register: async () => {}, batchSize: 3 });
  await p.drain();
  assert.deepEqual(batches.map((b) => b.seqs), [[1, 2, 3], [4, 5, 6], [7]]);
  assert.deepEqual(batches.map((b) => b.hello.s), [3, 6, 7], 'each notification names the last change published');
  assert.equal(store.fleetOutbox.stats().queued, 0);
  assert.equal(p.publishedSeq(), 7);
  p.close();
  store.close();
});

it('a failure keeps the batch queued and retries it; nothing is sent while disconnected', async () => {
  const store = openSqliteStore({ path: ':memory:' });
  fill(store, 2);
  let connected = false;
  const errors: string[] = [];
  const { db, batches } = fakeDb((call) => (call < 2 ? new Error('connection refused') : null));
  const p = createPublisher({ outbox: store.fleetOutbox, hostId: HOST, db: () => (connected ? db : null), hello: () => ({ n: 'A', a: true }), register: async () => {}, backoff: createBackoff({ firstMs: 1, maxMs: 2 }), onError: (e) => errors.push(e.message) });
  await p.drain();
  assert.equal(batches.length, 0, 'disconnected: nothing tried');
  connected = true;
  await p.drain();
  assert.equal(store.fleetOutbox.stats().queued, 2, 'the failed batch is still queued');
  while (store.fleetOutbox.stats().queued > 0) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(batches.map((b) => b.seqs), [[1, 2]], 'published once it could be');
  assert.deepEqual(errors, ['connection refused', 'connection refused']);
  p.close();
  store.close();
});

it('a host row removed under it (foreign key violation) is registered again and the batch retried', async () => {
  const store = openSqliteStore({ path: ':memory:' });
  fill(store, 1);
  let registered = 0;
  const { db, batches } = fakeDb((call) => (call === 0 ? Object.assign(new Error('violates foreign key'), { code: '23503' }) : null));
  const p = createPublisher({ outbox: store.fleetOutbox, hostId: HOST, db: () => db, hello: () => ({ n: 'A', a: true }), register: async () => void registered++ });
  await p.drain();
  assert.equal(registered, 1);
  assert.deepEqual(batches.map((b) => b.seqs), [[1]]);
  p.close();
  store.close();
});
