// The per-client SSE queue (issue 13, point 3): a client that does not read is dropped once its
// backlog passes a bound in events or characters; one that reads is never dropped, whatever the rate.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSseQueue, formatSse } from './sse-queue.ts';

const stalled = () => new Promise<void>(() => {});

describe('createSseQueue', () => {
  it('drops a client that stops reading once more than maxEvents wait, and writes nothing after', () => {
    const written: string[] = [];
    const drops: { events: number; bytes: number }[] = [];
    const q = createSseQueue({ write: (c) => (written.push(c), stalled()), maxEvents: 10, onOverflow: (w) => drops.push(w) });
    for (let i = 0; i < 20; i++) q.push(`e${i}\n\n`);
    assert.deepEqual(written, ['e0\n\n'], 'the first write is in flight and never finishes');
    assert.deepEqual(drops, [{ events: 10, bytes: 9 * 4 + 5 }], 'e1..e10 were waiting');
    assert.deepEqual(q.size(), { events: 0, bytes: 0 }, 'the backlog is let go');
  });

  it('drops on characters too, but lets one oversized chunk out when nothing else waits', () => {
    let drops = 0;
    const written: string[] = [];
    const q = createSseQueue({ write: (c) => (written.push(c), stalled()), maxBytes: 100, onOverflow: () => drops++ });
    q.push('x'.repeat(500));
    q.push('y'.repeat(60));
    assert.equal(drops, 0);
    q.push('z'.repeat(60));
    assert.equal(drops, 1);
    assert.deepEqual(written.map((w) => w[0]), ['x']);
  });

  it('a client that reads gets every chunk in order, however many are published in a burst', async () => {
    const written: string[] = [];
    let drops = 0;
    const q = createSseQueue({ write: async (c) => void written.push(c), maxEvents: 50, onOverflow: () => drops++ });
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 40; i++) q.push(`${round}.${i}`);
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(drops, 0);
    assert.equal(written.length, 8000);
    assert.equal(written[7999], '199.39');
  });

  it('close stops writing and empties the queue', async () => {
    const written: string[] = [];
    let release!: () => void;
    const q = createSseQueue({ write: (c) => (written.push(c), new Promise<void>((r) => (release = r))), onOverflow: () => {} });
    q.push('a');
    q.push('b');
    q.close();
    release();
    await new Promise((r) => setImmediate(r));
    q.push('c');
    assert.deepEqual(written, ['a']);
  });
});

describe('formatSse', () => {
  it('writes what hono writeSSE writes', () => {
    assert.equal(formatSse({ event: 'x.y', data: '{"a":1}', id: '7' }), 'event: x.y\ndata: {"a":1}\nid: 7\n\n');
    assert.equal(formatSse({ data: 'a\nb' }), 'data: a\ndata: b\n\n');
  });
});
