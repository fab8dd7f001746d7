// What a host knows of the others: changes applied in order (a gap asks for a reload), records
// announced on the bus with their host, a silent host's rows kept and marked unreachable, a host that
// left removed, and a flood of changes sent as one resync. The clock is injected: no timing here.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createReplica, RESYNC_LIMIT } from './replica.ts';
import { compareSessions } from '../hub/index.ts';
import type { Session } from '../core/session.ts';
import { emptyTokens } from '../core/session.ts';

const ME = 'hst_mmmmmmmmmmmmmmmmmmmmmmmmmm';
const A = 'hst_aaaaaaaaaaaaaaaaaaaaaaaaaa';
const sid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const session = (n: number, over: Partial<Session> = {}): Session => ({
  harness: 'claude', id: sid(n), title: `s${n}`, cwd: '/r', repoRoot: null, branch: null, live: true, pid: 10 + n, pids: [10 + n], status: 'idle', waitingFor: null,
  statusSince: null, startedAt: null, lastActivityAt: null, model: null, tokens: emptyTokens(), costUsd: null, prLinks: [], pane: null, canEnd: true, resumeArgv: null, ...over,
});
const upsert = (seq: number, s: Session) => ({ seq, kind: 'session' as const, key: `claude:${s.id}`, op: 'upsert' as const, data: s });

function rig() {
  let now = 1_000_000;
  const events: { type: string; data: unknown }[] = [];
  const r = createReplica({ selfId: ME, publish: (type, data) => void events.push({ type, data }), clock: () => now });
  return { r, events, advance: (ms: number) => void (now += ms), types: () => events.splice(0).map((e) => e.type) };
}

it('a host heard for the first time is loaded whole; then its changes after what is known are read', () => {
  const { r, types } = rig();
  assert.deepEqual(r.heard({ h: ME, s: 9, n: 'me', a: true }), { fetch: 'none', after: 0 }, 'this host\'s own notifications are ignored');
  assert.equal(r.heard({ h: A, s: 3, n: 'A', a: true }).fetch, 'host');
  r.loadHost({ id: A, name: 'A', acceptCommands: true, lastSeq: 3, lastHeardMs: 1_000_000 }, [{ kind: 'session', key: `claude:${sid(1)}`, data: session(1) }]);
  assert.deepEqual(types(), ['fleet.hosts.changed', 'session.upserted', 'fleet.hosts.changed']);
  assert.deepEqual(r.heard({ h: A, s: 3, n: 'A', a: true }), { fetch: 'none', after: 3 });
  assert.deepEqual(r.heard({ h: A, s: 5, n: 'A', a: true }), { fetch: 'changes', after: 3 });
  const s = r.session(sid(1));
  assert.deepEqual([s?.host, s?.hostId, s?.hostReachable, s?.readOnly], ['A', A, true, false]);
});

it('changes apply in order, once; a gap says "reload this host"', () => {
  const { r, events } = rig();
  r.loadHost({ id: A, name: 'A', acceptCommands: true, lastSeq: 0, lastHeardMs: 1_000_000 }, []);
  events.length = 0;
  assert.equal(r.applyChanges(A, [upsert(1, session(1)), upsert(2, session(1, { status: 'waiting', waitingFor: 'a question' })), upsert(1, session(1, { title: 'stale' }))]), true);
  assert.equal(r.session(sid(1))?.status, 'waiting');
  assert.equal(r.session(sid(1))?.title, 's1', 'an old change is not applied twice');
  assert.deepEqual(events.map((e) => e.type), ['session.upserted', 'session.upserted', 'session.status.changed']);
  assert.equal(r.applyChanges(A, [upsert(4, session(2))]), false, 'change 3 is missing');
  assert.equal(r.session(sid(2)), undefined);
  assert.equal(r.applyChanges(A, [{ seq: 3, kind: 'session', key: `claude:${sid(1)}`, op: 'delete', data: null }]), true);
  assert.equal(r.session(sid(1)), undefined);
  assert.deepEqual(events.at(-1), { type: 'session.removed', data: { harness: 'claude', id: sid(1), hostId: A } });
});

it('a host silent for 30 s is unreachable, its rows kept; heard again, live again', () => {
  const { r, advance, types, events } = rig();
  r.loadHost({ id: A, name: 'A', acceptCommands: false, lastSeq: 1, lastHeardMs: 1_000_000 }, [{ kind: 'session', key: `claude:${sid(1)}`, data: session(1) }]);
  types();
  advance(29_000);
  assert.equal(r.tick(), 0);
  advance(1_000);
  assert.equal(r.tick(), 1);
  assert.deepEqual(types(), ['session.upserted', 'fleet.hosts.changed']);
  assert.equal(r.session(sid(1))?.hostReachable, false, 'kept, marked');
  assert.equal(r.session(sid(1))?.readOnly, true);
  assert.equal(r.hosts()[0]?.reachable, false);
  r.heard({ h: A, s: 1, n: 'A', a: false });
  assert.equal(r.session(sid(1))?.hostReachable, true);
  assert.ok(events.some((e) => e.type === 'fleet.hosts.changed'));
});

it('a host that left is removed with its records; a snapshot drops hosts no longer there', () => {
  const { r, types } = rig();
  r.loadHost({ id: A, name: 'A', acceptCommands: true, lastSeq: 1, lastHeardMs: 1_000_000 }, [{ kind: 'session', key: `claude:${sid(1)}`, data: session(1) }, { kind: 'goal', key: sid(1), data: { id: 'gol_1', sessionId: sid(1), status: 'active' } }]);
  types();
  r.removeHost(A);
  assert.deepEqual(types(), ['session.removed', 'goal.updated', 'fleet.hosts.changed']);
  r.loadAll([{ id: A, name: 'A', acceptCommands: true, lastSeq: 1, lastHeardMs: 1_000_000 }], [{ hostId: A, kind: 'session', key: `claude:${sid(1)}`, data: session(1) }]);
  assert.ok(r.session(sid(1)));
  r.loadAll([], []);
  assert.equal(r.session(sid(1)), undefined);
  assert.deepEqual(r.hosts(), []);
});

it('more changes at once than clients should take one by one become a single resync', () => {
  const { r, types } = rig();
  const many = Array.from({ length: RESYNC_LIMIT + 1 }, (_, i) => ({ kind: 'session' as const, key: `claude:${sid(i)}`, data: session(i) }));
  r.loadHost({ id: A, name: 'A', acceptCommands: true, lastSeq: 1, lastHeardMs: 1_000_000 }, many);
  assert.deepEqual(types(), ['fleet.resync', 'fleet.hosts.changed']);
  assert.equal(r.sessions(compareSessions).length, RESYNC_LIMIT + 1);
});

it('malformed records from the database are skipped, not trusted', () => {
  const { r } = rig();
  r.loadHost({ id: A, name: 'A', acceptCommands: true, lastSeq: 0, lastHeardMs: 1_000_000 }, [
    { kind: 'session', key: 'claude:../../etc', data: { ...session(1), id: '../../etc' } },
    { kind: 'session', key: 'claude:wrong-key', data: session(2) },
    { kind: 'page', key: 'pag_x', data: { id: 'pag_x', status: 'pending' } },
  ]);
  assert.equal(r.sessions(compareSessions).length, 0);
  assert.equal(r.pages().length, 0);
});
