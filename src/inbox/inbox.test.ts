import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInbox } from './index.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

test('no listener: a prompt is refused at once, never kept', async () => {
  const inbox = createInbox();
  assert.equal(await inbox.deliver(A, 'hi', 1000), 'no_listener');
  assert.deepEqual(await inbox.wait([A], 0), [], 'nothing was queued for a later poll');
});

test('a waiting poll takes the prompt at once; the sender learns it was claimed', async () => {
  const inbox = createInbox();
  const poll = inbox.wait([B, A], 5000);
  assert.equal(inbox.listening(A), true);
  const sent = inbox.deliver(A, 'continue with the tests', 1000);
  const got = await poll;
  assert.equal(await sent, 'claimed');
  assert.deepEqual(got.map((p) => [p.sessionId, p.text]), [[A, 'continue with the tests']]);
});

test('between polls the listener still counts as connected, and the next poll takes what arrived', async () => {
  let now = 0;
  const inbox = createInbox({ listenerTtlMs: 10_000, clock: () => now });
  assert.deepEqual(await inbox.wait([A], 0), []);
  now = 5_000;
  const sent = inbox.deliver(A, 'one', 5_000);
  const sent2 = inbox.deliver(A, 'two', 5_000);
  const got = await inbox.wait([A], 1000);
  assert.deepEqual(got.map((p) => p.text), ['one', 'two'], 'in order');
  assert.deepEqual([await sent, await sent2], ['claimed', 'claimed']);
  now = 5_000 + 10_001;
  assert.equal(inbox.listening(A), false, 'a listener that stopped polling is gone after the TTL');
});

test('a prompt nobody takes in time is withdrawn; an aborted poll claims nothing', async () => {
  const inbox = createInbox();
  await inbox.wait([A], 0);
  assert.equal(await inbox.deliver(A, 'late', 30), 'timeout');
  assert.deepEqual(await inbox.wait([A], 0), [], 'withdrawn, not delivered later');
  const ac = new AbortController();
  const poll = inbox.wait([A], 5000, ac.signal);
  ac.abort();
  assert.deepEqual(await poll, []);
  inbox.close();
});
