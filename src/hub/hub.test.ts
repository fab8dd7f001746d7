import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHub } from './hub.ts';
import { createHookStatus } from './hook-status.ts';
import { createEventBus, type MusterEvent } from '../events/index.ts';
import type { SessionSource, SourceChange } from '../discovery/contract.ts';
import { emptyTokens, type Session } from '../core/session.ts';

function session(id: string, over: Partial<Session> = {}): Session {
  return {
    harness: 'claude', id, title: id, cwd: '/w/repo', repoRoot: '/w/repo', branch: 'main', live: false, pid: null, pids: [],
    status: 'ended', waitingFor: null, statusSince: null, startedAt: null, lastActivityAt: null, model: null,
    tokens: emptyTokens(), costUsd: null, prLinks: [], pane: null, canEnd: false, resumeArgv: ['claude', '--resume', id], ...over,
  };
}

function fakeSource(initial: Session[]) {
  let current = initial;
  let notify: ((c: SourceChange) => void) | null = null;
  let lists = 0;
  const src: SessionSource = {
    harness: 'claude',
    list: async () => { lists++; return current; },
    get: async (id) => current.find((s) => s.id === id),
    watch: (fn) => { notify = fn; return () => { notify = null; }; },
    end: async () => ({ outcome: 'not_running', reason: 'fake' }),
    resumeArgv: (id) => ['claude', '--resume', id],
    isValidId: () => true,
    diagnostics: () => ({ harness: 'claude', filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, staleRegistryFiles: 0, notRegularFiles: 0, errors: [] }),
  };
  return { src, set: (s: Session[]) => { current = s; }, fire: () => notify?.({ harness: 'claude', ids: [] }), lists: () => lists };
}

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('watch changes become upserted, status.changed and removed events; filters and order hold', async () => {
  const bus = createEventBus();
  const events: MusterEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const f = fakeSource([session(A), session(B, { live: true, pid: process.pid, pids: [process.pid], status: 'idle' })]);
  const hub = createHub({ sources: [f.src], bus, isAlive: () => true, debounceMs: 5 });
  await hub.start();
  assert.equal(hub.list().length, 2);
  assert.equal(hub.list()[0]?.id, B, 'live first');
  assert.deepEqual(hub.list({ live: true }).map((s) => s.id), [B]);
  assert.deepEqual(hub.list({ status: 'ended' }).map((s) => s.id), [A]);
  assert.deepEqual(hub.list({ cwd: '/w' }).length, 2);
  assert.deepEqual(hub.list({ cwd: '/w/rep' }).length, 0, 'a prefix that is not a parent dir does not match');
  events.length = 0;
  f.set([session(B, { live: true, pid: process.pid, pids: [process.pid], status: 'waiting', waitingFor: 'permission' })]);
  f.fire();
  f.fire();
  await wait(50);
  assert.deepEqual(events.map((e) => e.type).sort(), ['session.removed', 'session.status.changed', 'session.upserted']);
  const changed = events.find((e) => e.type === 'session.status.changed')?.data as { status: string; waitingFor: string; previous: { status: string } };
  assert.equal(changed.status, 'waiting');
  assert.equal(changed.waitingFor, 'permission');
  assert.equal(changed.previous.status, 'idle');
  assert.equal(hub.get(A), undefined);
  await hub.close();
});

test('the liveness sweep re-lists a source when a live pid died, without file events', async () => {
  const bus = createEventBus();
  let alive = true;
  const f = fakeSource([session(B, { live: true, pid: 4242, pids: [4242], status: 'working' })]);
  const hub = createHub({ sources: [f.src], bus, isAlive: () => alive, debounceMs: 1, sweepMs: 10, quietSweepMs: 10, stillSweepMs: 10 });
  await hub.start();
  const before = f.lists();
  await wait(40);
  assert.equal(f.lists(), before, 'no re-list while everything is alive (no polling of files)');
  alive = false;
  f.set([session(B)]);
  await wait(60);
  assert.equal(hub.get(B)?.live, false);
  await hub.close();
});

test('a source that throws is counted and does not stop the others', async () => {
  const bus = createEventBus();
  const bad = fakeSource([]);
  bad.src.list = async () => { throw new Error('boom'); };
  const hub = createHub({ sources: [bad.src], bus, isAlive: () => true });
  await hub.start();
  assert.equal(hub.diagnostics().sources[0]?.listErrors, 1);
  await hub.close();
});

test('a watch event naming ids re-reads only those sessions (no re-list)', async () => {
  const bus = createEventBus();
  const events: MusterEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const f = fakeSource([session(A), session(B)]);
  let gets: string[] = [];
  let notify: ((c: SourceChange) => void) | null = null;
  f.src.get = async (id) => { gets.push(id); return id === A ? session(A, { title: 'renamed' }) : undefined; };
  f.src.watch = (fn) => { notify = fn; return () => {}; };
  const hub = createHub({ sources: [f.src], bus, isAlive: () => true, debounceMs: 5 });
  await hub.start();
  const lists = f.lists();
  events.length = 0;
  gets = [];
  notify!({ harness: 'claude', ids: [A] });
  notify!({ harness: 'claude', ids: [B] });
  await wait(50);
  assert.equal(f.lists(), lists, 'no full re-list');
  assert.deepEqual(gets.sort(), [A, B].sort());
  assert.equal(hub.get(A)?.title, 'renamed');
  assert.equal(hub.get(B), undefined, 'a session the source no longer has is removed');
  assert.deepEqual(events.map((e) => e.type).sort(), ['session.removed', 'session.upserted']);
  notify!({ harness: 'claude', ids: [] });
  await wait(50);
  assert.equal(f.lists(), lists + 1, 'an event without ids re-lists');
  await hub.close();
});

test('a full listing that hands out the very sessions it published is not applied again, unless a targeted read changed one since', async () => {
  const bus = createEventBus();
  const events: MusterEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const a = session(A);
  const b = session(B);
  const f = fakeSource([a, b]);
  let notify: ((c: SourceChange) => void) | null = null;
  f.src.watch = (fn) => { notify = fn; return () => {}; };
  f.src.get = async (id) => (id === A ? session(A, { title: 'renamed' }) : b);
  // Every session a listing publishes goes through the overlay: its calls count the listings applied.
  let applied = 0;
  const overlay = createHookStatus();
  const counting = { ...overlay, apply: (s: Session) => { applied++; return overlay.apply(s); } };
  const hub = createHub({ sources: [f.src], bus, isAlive: () => true, debounceMs: 5, overlay: counting });
  await hub.start();
  assert.equal(applied, 2);
  const lists = f.lists();
  events.length = 0;
  notify!({ harness: 'claude', ids: [] });
  await wait(50);
  assert.equal(f.lists(), lists + 1, 'listed again');
  assert.equal(applied, 2, 'the same two sessions: nothing applied or diffed');
  assert.deepEqual(events, []);
  notify!({ harness: 'claude', ids: [A] });
  await wait(50);
  assert.equal(hub.get(A)?.title, 'renamed');
  // The source lists the session it had before the targeted read: what the hub holds is no longer that listing.
  notify!({ harness: 'claude', ids: [] });
  await wait(50);
  assert.equal(f.lists(), lists + 2);
  assert.equal(hub.get(A)?.title, A, 'the listing is applied again');
  assert.equal(applied, 2 + 1 + 2);
  await hub.close();
});

test('get(id) finds a session of any source by its id alone', async () => {
  const bus = createEventBus();
  const claude = fakeSource([session(A)]);
  const codex = fakeSource([session(B, { harness: 'codex' })]);
  const hub = createHub({ sources: [claude.src, { ...codex.src, harness: 'codex' }], bus, isAlive: () => true });
  await hub.start();
  assert.equal(hub.get(A)?.harness, 'claude');
  assert.equal(hub.get(B)?.harness, 'codex');
  assert.equal(hub.get('33333333-3333-4333-8333-333333333333'), undefined);
  await hub.close();
});

test('a cold index: the first listing is served at once, progress goes out as index.progress.changed, each batch re-lists, the end is published after the last listing', async () => {
  const bus = createEventBus();
  const events: MusterEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const f = fakeSource([session(A)]);
  let report: ((p: { harness: 'claude'; total: number; done: number; bytesTotal: number; bytesDone: number }) => void) | null = null;
  let finish!: () => void;
  f.src.coldIndex = (onProgress) => {
    report = onProgress;
    onProgress({ harness: 'claude', total: 2, done: 0, bytesTotal: 20, bytesDone: 0 });
    return new Promise<void>((r) => (finish = r));
  };
  const hub = createHub({ sources: [f.src], bus, isAlive: () => true, debounceMs: 5 });
  await hub.start();
  await hub.ready();
  assert.deepEqual(hub.list().map((s) => s.id), [A], 'ready before the cold index ends');
  assert.deepEqual({ ...hub.indexing(), sources: [] }, { active: true, done: 0, total: 2, bytesDone: 0, bytesTotal: 20, sources: [] });
  f.set([session(A), session(B)]);
  report!({ harness: 'claude', total: 2, done: 1, bytesTotal: 20, bytesDone: 10 });
  await wait(400); // the re-list of a batch comes within relistMs (250)
  assert.deepEqual(hub.list().map((s) => s.id).sort(), [A, B].sort(), 'the batch is listed while indexing goes on');
  const lists = f.lists();
  finish();
  await wait(50);
  assert.ok(f.lists() > lists, 're-listed at the end');
  assert.equal(hub.indexing().active, false);
  const figures = events.filter((e) => e.type === 'index.progress.changed').map((e) => e.data as { done: number; active: boolean });
  assert.deepEqual(figures.at(0), { ...figures.at(0), done: 0, active: true });
  assert.deepEqual(figures.at(-1), { ...figures.at(-1), done: 1, active: false });
  await hub.close();
});

test('the safety rescan backs off while nothing happens (2×, 4×, 8× the setting after the start) and comes back at the first activity', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  let now = 0;
  const f = fakeSource([session(A)]);
  const hub = createHub({ sources: [f.src], bus: createEventBus(), isAlive: () => true, debounceMs: 5, rescanMs: () => 30_000, sweepMs: 1_000_000, clock: () => now });
  await hub.start();
  const advance = async (ms: number): Promise<void> => {
    now += ms;
    t.mock.timers.tick(ms);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  const base = f.lists();
  await advance(59_999);
  assert.equal(f.lists(), base, 'the start listing counts: a quiet daemon waits twice the setting');
  await advance(1);
  assert.equal(f.lists(), base + 1);
  await advance(120_000);
  assert.equal(f.lists(), base + 2, 'then four times');
  await advance(239_999);
  assert.equal(f.lists(), base + 2, 'then eight times');
  await advance(1);
  assert.equal(f.lists(), base + 3);
  await advance(240_000);
  assert.equal(f.lists(), base + 4, 'and no more than eight');
  await advance(10_000);
  f.set([session(A), session(B)]);
  f.fire(); // activity: a watch event
  await advance(5);
  const after = f.lists();
  await advance(19_995);
  assert.equal(f.lists(), after + 1, 'activity: the next comes the setting after the last');
  await advance(30_000);
  assert.equal(f.lists(), after + 2, 'and keeps that pace while the interval before had activity');
  await hub.close();
});
