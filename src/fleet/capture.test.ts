// Local first: the bus's changes become outbox rows, one transaction per tick, other hosts' records
// never; reconcile queues what changed while nobody listened (and deletions only from complete lists).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { changeOf, createCapture } from './capture.ts';
import { createEventBus, type MusterEvent } from '../events/index.ts';
import { openSqliteStore } from '../store/index.ts';
import { emptyTokens, type Session } from '../core/session.ts';
import type { Page } from '../pager/index.ts';

const session = (id: string, over: Partial<Session> = {}): Session => ({
  harness: 'claude', id, title: 't', cwd: null, repoRoot: null, branch: null, live: false, pid: null, pids: [], status: 'ended', waitingFor: null,
  statusSince: null, startedAt: null, lastActivityAt: null, model: null, tokens: emptyTokens(), costUsd: null, prLinks: [], pane: null, canEnd: false, resumeArgv: null, ...over,
});
const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';

it('maps each local event to the change of its record, and another host\'s to nothing', () => {
  const bus = createEventBus();
  const ev = <E extends MusterEvent>(e: E) => e;
  assert.deepEqual(changeOf(bus.publish('session.upserted', { session: session(S1) })), { kind: 'session', key: `claude:${S1}`, op: 'upsert', data: session(S1) });
  assert.deepEqual(changeOf(bus.publish('session.removed', { harness: 'claude', id: S1 })), { kind: 'session', key: `claude:${S1}`, op: 'delete', data: null });
  assert.equal(changeOf(bus.publish('session.upserted', { session: session(S1, { hostId: 'hst_x', host: 'X' }) })), null);
  assert.equal(changeOf(bus.publish('session.removed', { harness: 'claude', id: S1, hostId: 'hst_x' })), null);
  const page = { id: 'pag_1', status: 'answered' } as Page;
  assert.equal(changeOf(bus.publish('page.answered', page))?.key, 'pag_1');
  assert.equal(changeOf(bus.publish('page.answered', { ...page, hostId: 'hst_x' })), null);
  assert.equal(changeOf(ev(bus.publish('daemon.ready', { pid: 1, port: 2 }))), null);
});

it('queues one tick\'s events in one go, in order, and tells the publisher', () => {
  const store = openSqliteStore({ path: ':memory:' });
  const bus = createEventBus();
  const deferred: (() => void)[] = [];
  const told: number[] = [];
  const c = createCapture({ outbox: store.fleetOutbox, subscribe: (l) => bus.subscribe(l), queued: (n) => told.push(n), defer: (fn) => void deferred.push(fn) });
  bus.publish('session.upserted', { session: session(S1, { status: 'idle', live: true }) });
  bus.publish('session.upserted', { session: session(S1, { status: 'working', live: true }) });
  bus.publish('session.upserted', { session: session(S2, { hostId: 'hst_x' }) });
  assert.equal(store.fleetOutbox.stats().queued, 0, 'nothing written before the tick ends');
  assert.equal(deferred.length, 1, 'one write per tick');
  deferred.shift()!();
  assert.deepEqual(told, [2]);
  assert.deepEqual(store.fleetOutbox.peek(10).map((e) => (e.data as Session).status), ['idle', 'working']);
  c.close();
  bus.publish('session.upserted', { session: session(S1, { status: 'idle' }) });
  assert.equal(deferred.length, 0, 'closed: no more');
  store.close();
});

it('reconcile queues what differs from what was last queued; deletions only from complete lists', () => {
  const store = openSqliteStore({ path: ':memory:' });
  const bus = createEventBus();
  const c = createCapture({ outbox: store.fleetOutbox, subscribe: (l) => bus.subscribe(l), queued: () => {}, defer: (fn) => fn() });
  const page = { id: 'pag_1', status: 'pending' } as Page;
  assert.equal(c.reconcile({ sessions: [session(S1), session(S2)], pages: [page], goals: [], completePages: true, completeGoals: true }), 3);
  assert.equal(c.reconcile({ sessions: [session(S1), session(S2)], pages: [page], goals: [], completePages: true, completeGoals: true }), 0, 'nothing changed');
  // S2 vanished while the daemon was down; the page list is cut short (a limit): its absence proves nothing.
  assert.equal(c.reconcile({ sessions: [session(S1)], pages: [], goals: [], completePages: false, completeGoals: true }), 1);
  assert.deepEqual(store.fleetOutbox.peek(10).at(-1), { ...store.fleetOutbox.peek(10).at(-1), kind: 'session', key: `claude:${S2}`, op: 'delete' });
  assert.equal(c.reconcile({ sessions: [session(S1)], pages: [], goals: [], completePages: true, completeGoals: true }), 1, 'a complete list: the page is gone');
  c.close();
  store.close();
});
