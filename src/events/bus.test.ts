import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEventBus, type MusterEvent } from './index.ts';

test('events get increasing ids and reach subscribers until they unsubscribe', () => {
  const bus = createEventBus();
  const seen: string[] = [];
  const off = bus.subscribe((e) => seen.push(`${e.id}:${e.type}`));
  bus.publish('board.scene.saved', { version: 1 });
  off();
  bus.publish('board.scene.saved', { version: 2 });
  assert.deepEqual(seen, ['1:board.scene.saved']);
  assert.equal(bus.lastId(), 2);
});

test('replay returns what came after an id, and null once that id left the buffer', () => {
  const bus = createEventBus({ bufferSize: 3 });
  for (let i = 0; i < 5; i++) bus.publish('board.scene.saved', { version: i });
  assert.deepEqual(bus.since(3)?.map((e) => e.id), [4, 5]);
  assert.deepEqual(bus.since(5), []);
  assert.equal(bus.since(1), null, 'events 2 was dropped');
});

test('an id past the last one is from an earlier daemon: a resync, not an empty replay', () => {
  const bus = createEventBus();
  assert.deepEqual(bus.since(0), [], 'a client that saw nothing of an empty bus');
  bus.publish('board.scene.saved', { version: 1 });
  assert.deepEqual(bus.since(1), []);
  assert.equal(bus.since(2), null, 'this bus never sent id 2: its ids started again');
});

test('a throwing listener does not stop the others', () => {
  const bus = createEventBus();
  let got = 0;
  bus.subscribe(() => { throw new Error('boom'); });
  bus.subscribe(() => { got++; });
  bus.publish('board.characters.changed', {});
  assert.equal(got, 1);
});

test('on(name) hears only that event, typed by the catalogue', () => {
  const bus = createEventBus();
  const versions: number[] = [];
  const off = bus.on('board.scene.saved', (e) => versions.push(e.data.version));
  bus.publish('board.characters.changed', { active: 'default' });
  bus.publish('board.scene.saved', { version: 7 });
  off();
  bus.publish('board.scene.saved', { version: 8 });
  assert.deepEqual(versions, [7]);
  assert.equal(bus.listenerCount(), 0);
});

test('the catalogue types names and payloads at compile time', () => {
  const bus = createEventBus();
  // @ts-expect-error -- a name the catalogue does not list
  bus.publish('session.renamed', { id: 'x' });
  // @ts-expect-error -- the payload of another event
  bus.publish('board.scene.saved', { active: 'default' });
  // @ts-expect-error -- a payload field of the wrong type
  bus.publish('goal.evaluating', { goalId: 'gol_x', sessionId: 's', evaluating: 'yes' });
  const seen: number[] = [];
  bus.subscribe((e: MusterEvent) => {
    // The union narrows on `type`: no cast to read the payload.
    if (e.type === 'goal.evaluating') seen.push(e.data.evaluating ? 1 : 0);
    // @ts-expect-error -- not narrowed: `data` is any event's payload
    else seen.push(e.data.version);
  });
  bus.publish('goal.evaluating', { goalId: 'gol_x', sessionId: 's', evaluating: true });
  assert.deepEqual(seen.slice(-1), [1]);
});
