// The SSE route's per-client bound (issue 13, point 3), driven without a socket: a client that never
// reads is dropped once its backlog passes the bound, while one that reads gets every event; a
// replay too large for the queue becomes a resync rather than a drop-and-reconnect loop.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../app.ts';
import { eventsRoutes } from './events.ts';
import { createEventBus } from '../../events/index.ts';

const TOKEN = 'e'.repeat(43);
const PORT = 7002;

function rig(max: { maxQueuedEvents?: number; maxQueuedBytes?: number } = {}) {
  const bus = createEventBus();
  const open = new Set<() => void>();
  const drops: { events: number; bytes: number }[] = [];
  const app = createApp({
    token: TOKEN,
    getPort: () => PORT,
    routes: [eventsRoutes({ bus, ...max, hello: () => ({ pid: 1, buildId: 'muster@test' }), track: (c) => (open.add(c), () => open.delete(c)), onDrop: (q) => drops.push(q) })],
  });
  const connect = async (lastEventId?: number) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${PORT}`, authorization: `Bearer ${TOKEN}` };
    if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
    const res = await app.request(`http://127.0.0.1:${PORT}/api/events`, { headers });
    assert.equal(res.status, 200);
    return res.body!.getReader();
  };
  return { bus, open, drops, connect, closeAll: () => [...open].forEach((c) => c()) };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('GET /api/events: bounded per client', () => {
  const rigs: ReturnType<typeof rig>[] = [];
  after(() => rigs.forEach((r) => r.closeAll()));

  it('a client that never reads is dropped past maxQueuedEvents; a reading one gets every event', async () => {
    const r = rig({ maxQueuedEvents: 100 });
    rigs.push(r);
    await r.connect(); // never read
    const reader = await r.connect();
    let text = '';
    const decoder = new TextDecoder();
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    })();
    await tick();
    assert.equal(r.open.size, 2);
    for (let i = 0; i < 30; i++) {
      for (let j = 0; j < 20; j++) r.bus.publish('board.scene.saved', { version: i * 20 + j });
      await tick();
    }
    assert.equal(r.drops.length, 1, 'the stalled client was dropped once');
    assert.equal(r.drops[0]!.events, 100);
    assert.equal(r.open.size, 1, 'only the reading client is still open');
    assert.equal(r.bus.listenerCount(), 1, 'the dropped client no longer listens');
    await new Promise((res) => setTimeout(res, 50));
    assert.equal((text.match(/^event: board\.scene\.saved$/gm) ?? []).length, 600, 'the reading client got all 600 events');
    assert.match(text, /id: 600\n/);
    r.closeAll();
    await reading;
  });

  it('drops on characters as well as events', async () => {
    const r = rig({ maxQueuedBytes: 10_000 });
    rigs.push(r);
    await r.connect();
    for (let i = 0; i < 20; i++) r.bus.publish('board.characters.changed', { active: 'x'.repeat(1000) });
    assert.equal(r.drops.length, 1);
    assert.ok(r.drops[0]!.bytes <= 10_000 && r.drops[0]!.events < 11, JSON.stringify(r.drops[0]));
  });

  it('a replay larger than the queue is answered with resync instead, so the client is not dropped again', async () => {
    const r = rig({ maxQueuedEvents: 50 });
    rigs.push(r);
    for (let i = 0; i < 80; i++) r.bus.publish('board.scene.saved', { version: i });
    const far = await r.connect(1);
    const { value } = await far.read();
    assert.match(new TextDecoder().decode(value), /"resync":true/);
    const near = await r.connect(70);
    let text = '';
    while (!text.includes('id: 80\n')) text += new TextDecoder().decode((await near.read()).value);
    assert.match(text, /"resync":false/);
    assert.equal((text.match(/^event: board\.scene\.saved$/gm) ?? []).length, 10);
    assert.deepEqual(r.drops, []);
  });
});
