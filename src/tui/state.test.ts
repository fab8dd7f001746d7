import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyEvent, applySnapshot } from './state.ts';
import { initialState } from './types.ts';
import { goal, page, session, uuid } from './tui-fixtures.test-support.ts';

const base = () => applySnapshot(initialState(), { sessions: [session(1, { pane: { manager: 'tmux', id: '%3' } }), session(2)], pages: [page(1)], goals: [goal(uuid(1))] });

describe('state from snapshot and events', () => {
  it('a snapshot replaces everything', () => {
    const s = applySnapshot(base(), { sessions: [session(3)], pages: [], goals: [] });
    assert.deepEqual([...s.sessions.keys()], [uuid(3)]);
    assert.equal(s.pages.size, 0);
    assert.equal(s.goals.size, 0);
  });

  it('session.status.changed patches status, reason and since; unknown ids are ignored', () => {
    const s = applyEvent(base(), { type: 'session.status.changed', data: { id: uuid(2), status: 'waiting', waitingFor: 'permission', live: true, statusSince: '2026-01-02T00:00:00.000Z' } });
    const got = s.sessions.get(uuid(2))!;
    assert.deepEqual([got.status, got.waitingFor, got.statusSince], ['waiting', 'permission', '2026-01-02T00:00:00.000Z']);
    const same = applyEvent(s, { type: 'session.status.changed', data: { id: uuid(99), status: 'idle' } });
    assert.equal(same, s);
  });

  it('session.upserted keeps the known pane of the same live process (bus events carry none)', () => {
    const s = applyEvent(base(), { type: 'session.upserted', data: { session: session(1, { title: 'renamed' }) } });
    assert.equal(s.sessions.get(uuid(1))!.title, 'renamed');
    assert.deepEqual(s.sessions.get(uuid(1))!.pane, { manager: 'tmux', id: '%3' });
    const ended = applyEvent(s, { type: 'session.upserted', data: { session: session(1, { live: false, pid: null }) } });
    assert.equal(ended.sessions.get(uuid(1))!.pane, null);
  });

  it('session.removed drops it; applying an event twice converges', () => {
    const once = applyEvent(base(), { type: 'session.removed', data: { harness: 'claude', id: uuid(2) } });
    assert.equal(once.sessions.has(uuid(2)), false);
    assert.equal(applyEvent(once, { type: 'session.removed', data: { harness: 'claude', id: uuid(2) } }), once);
  });

  it('goal.updated sets, cleared removes only the same goal, evaluating toggles', () => {
    const g = goal(uuid(2), { status: 'paused' });
    let s = applyEvent(base(), { type: 'goal.updated', data: g });
    assert.equal(s.goals.get(uuid(2))!.status, 'paused');
    s = applyEvent(s, { type: 'goal.evaluating', data: { goalId: g.id, sessionId: uuid(2), evaluating: true } });
    assert.ok(s.evaluating.has(uuid(2)));
    s = applyEvent(s, { type: 'goal.evaluating', data: { goalId: g.id, sessionId: uuid(2), evaluating: false } });
    assert.ok(!s.evaluating.has(uuid(2)));
    s = applyEvent(s, { type: 'goal.updated', data: { ...g, id: 'gol_other', cleared: true } });
    assert.ok(s.goals.has(uuid(2)), 'a stale clear of another goal does not remove the current one');
    s = applyEvent(s, { type: 'goal.updated', data: { ...g, cleared: true } });
    assert.ok(!s.goals.has(uuid(2)));
  });

  it('page events upsert the page; malformed data is ignored', () => {
    const s = applyEvent(base(), { type: 'page.answered', data: page(1, { status: 'answered' }) });
    assert.equal(s.pages.get(page(1).id)!.status, 'answered');
    const b = base();
    assert.equal(applyEvent(b, { type: 'page.opened', data: { id: 3 } }), b);
    assert.equal(applyEvent(b, { type: 'session.upserted', data: 'nope' }), b);
  });
});
