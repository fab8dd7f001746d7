import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEventBus } from './index.ts';

test('events get increasing ids and reach subscribers until they unsubscribe', () => {
  const bus = createEventBus();
  const seen: string[] = [];
  const off = bus.subscribe((e) => seen.push(`${e.id}:${e.type}`));
  bus.publish('a.b.c', 1);
  off();
  bus.publish('a.b.d', 2);
  assert.deepEqual(seen, ['1:a.b.c']);
  assert.equal(bus.lastId(), 2);
});

test('replay returns what came after an id, and null once that id left the buffer', () => {
  const bus = createEventBus({ bufferSize: 3 });
  for (let i = 0; i < 5; i++) bus.publish('x.y.z', i);
  assert.deepEqual(bus.since(3)?.map((e) => e.id), [4, 5]);
  assert.deepEqual(bus.since(5), []);
  assert.equal(bus.since(1), null, 'events 2 was dropped');
});

test('a throwing listener does not stop the others', () => {
  const bus = createEventBus();
  let got = 0;
  bus.subscribe(() => { throw new Error('boom'); });
  bus.subscribe(() => { got++; });
  bus.publish('t.t.t', null);
  assert.equal(got, 1);
});
