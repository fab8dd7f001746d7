import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyEvent, applySnapshot, emptyStreamState, isResync, STATE_EVENTS, withGoals, type StreamEvent, type StreamSnapshot, type StreamState } from './stream-state.ts';
import type { EventCatalogue, EventType } from './catalogue.ts';
import type { Session } from '../core/session.ts';
import type { Page } from '../pager/index.ts';
import type { Goal } from '../goals/index.ts';
import { goal, page, session, uuid } from '../tui/tui-fixtures.test-support.ts';

const ev = <K extends EventType>(type: K, data: EventCatalogue[K], at?: string): StreamEvent => ({ type, data, ...(at ? { at } : {}) });
const applyAll = (s: StreamState, events: readonly StreamEvent[]) => events.reduce(applyEvent, s);

/**
 * A daemon in miniature: each step changes its records and yields the events the real one publishes
 * for that change, so the snapshot after any step is what GET /api/sessions, /pages and /goals answer.
 */
function script() {
  const sessions = new Map<string, Session>();
  const pages = new Map<string, Page>();
  const goals = new Map<string, Goal>();
  const snapshots: StreamSnapshot[] = [];
  const events: StreamEvent[] = [];
  const snap = () => snapshots.push({ sessions: [...sessions.values()], pages: [...pages.values()], goals: [...goals.values()] });
  const emit = (...es: StreamEvent[]) => {
    events.push(...es);
    snap();
  };
  const upsert = (s: Session) => {
    const prev = sessions.get(s.id);
    sessions.set(s.id, s);
    const out = [ev('session.upserted', { session: s })];
    if (prev && (prev.status !== s.status || prev.waitingFor !== s.waitingFor || prev.live !== s.live)) {
      out.push(ev('session.status.changed', { harness: s.harness, id: s.id, status: s.status, waitingFor: s.waitingFor, live: s.live, statusSince: s.statusSince, previous: { status: prev.status, waitingFor: prev.waitingFor, live: prev.live } }));
    }
    emit(...out);
  };
  const putGoal = (g: Goal) => {
    goals.set(g.sessionId, g);
    emit(ev('goal.updated', g));
  };
  const putPage = (type: 'page.opened' | 'page.answered', p: Page) => {
    pages.set(p.id, p);
    emit(ev(type, p));
  };

  sessions.set(uuid(1), session(1));
  sessions.set(uuid(2), session(2, { status: 'working' }));
  snap();
  upsert(session(3, { title: 'new one' }));
  upsert(session(2, { status: 'waiting', waitingFor: 'permission', statusSince: '2026-01-01T00:01:00.000Z' }));
  putPage('page.opened', page(1, { sessionId: uuid(2) }));
  const g = goal(uuid(2));
  putGoal(g);
  emit(ev('goal.evaluating', { goalId: g.id, sessionId: uuid(2), evaluating: true }));
  emit(ev('goal.audited', { goalId: g.id, sessionId: uuid(2), verdict: null, error: 'timeout', auditor: 'cli:claude', tokens: 5 }, '2026-01-01T00:02:00.000Z'));
  emit(ev('goal.evaluating', { goalId: g.id, sessionId: uuid(2), evaluating: false }));
  putGoal({ ...g, turns: 4, auditFailures: 1, lastAudit: { at: '2026-01-01T00:02:00.000Z', verdict: null, error: 'timeout', auditor: 'cli:claude' } });
  putPage('page.answered', page(1, { sessionId: uuid(2), status: 'answered', answer: { text: 'yes', choice: null, by: 'operator' } }));
  sessions.delete(uuid(1));
  emit(ev('session.removed', { harness: 'claude', id: uuid(1) }));
  upsert(session(2, { status: 'idle', live: true, statusSince: '2026-01-01T00:03:00.000Z' }));
  goals.delete(uuid(2));
  emit(ev('goal.updated', { ...g, cleared: true }));
  return { snapshots, events };
}

describe('the shared stream reducer', () => {
  it('converges: any snapshot plus the events from any earlier point equals the latest snapshot', () => {
    const { snapshots, events } = script();
    const last = snapshots.at(-1)!;
    const truth = applySnapshot(emptyStreamState(), last);
    assert.equal(truth.sessions.size, 2);
    // Subscribed after `from` events, fetched the snapshot after `at` of them: replays from `from` on.
    for (let at = 0; at < snapshots.length; at++) {
      for (let from = 0; from <= at; from++) {
        const got = applyAll(applySnapshot(emptyStreamState(), snapshots[at]!), events.slice(from));
        assert.deepEqual(got, truth, `snapshot after ${at} events, replay from ${from}`);
      }
    }
    assert.deepEqual(applyAll(applySnapshot(emptyStreamState(), snapshots[0]!), events), truth, 'the first snapshot and every event');
  });

  it('re-applying an event changes nothing more; a removal or status change seen twice returns the same state', () => {
    const { snapshots, events } = script();
    let s = applySnapshot(emptyStreamState(), snapshots[0]!);
    for (const e of events) {
      const once = applyEvent(s, e);
      assert.deepEqual(applyEvent(once, e), once, e.type);
      s = once;
    }
    const removed = applyEvent(s, ev('session.removed', { harness: 'claude', id: uuid(3) }));
    assert.equal(applyEvent(removed, ev('session.removed', { harness: 'claude', id: uuid(3) })), removed);
    const status = ev('session.status.changed', { harness: 'claude', id: uuid(2), status: 'working', waitingFor: null, live: true, statusSince: null, previous: { status: 'idle', waitingFor: null, live: true } });
    const changed = applyEvent(s, status);
    assert.equal(applyEvent(changed, status), changed);
  });

  it('ignores unknown events, malformed data and events about records it does not hold (the same object back)', () => {
    const s = applySnapshot(emptyStreamState(), { sessions: [session(1)], pages: [page(1)], goals: [goal(uuid(1))] });
    const ignored: StreamEvent[] = [
      { type: 'session.renamed', data: { id: uuid(1), title: 'x' } },
      { type: '__proto__', data: {} },
      { type: 'daemon.hello', data: { pid: 1, buildId: 'b', lastEventId: 0, resync: false } },
      { type: 'page.notification', data: { pageId: page(1).id, channel: 'desktop', status: 'sent', error: null, at: '2026-01-01T00:00:00.000Z' } },
      { type: 'session.upserted', data: 'nope' },
      { type: 'session.upserted', data: { session: { title: 'no id' } } },
      { type: 'page.opened', data: { id: 3 } },
      { type: 'goal.updated', data: { sessionId: uuid(1) } },
      { type: 'goal.evaluating', data: null },
      { type: 'session.status.changed', data: { id: uuid(99), status: 'idle' } },
      { type: 'session.removed', data: { harness: 'claude', id: uuid(99) } },
      { type: 'goal.audited', data: { goalId: 'gol_other', sessionId: uuid(1), verdict: null, error: 'x', auditor: '', tokens: 0 } },
      { type: 'goal.updated', data: { ...goal(uuid(1)), id: 'gol_other', cleared: true } },
    ];
    for (const e of ignored) assert.equal(applyEvent(s, e), s, `${e.type} ${JSON.stringify(e.data)}`);
  });

  it('goal.audited records the verdict on the current goal at the time the client received it', () => {
    const g = goal(uuid(1));
    const s = applySnapshot(emptyStreamState(), { sessions: [session(1)], pages: [], goals: [g] });
    const verdict = { allDone: false, remaining: ['tests'], needsUser: false };
    const got = applyEvent(s, ev('goal.audited', { goalId: g.id, sessionId: uuid(1), verdict, error: null, auditor: 'openai/x', tokens: 9 }, '2026-01-01T00:05:00.000Z'));
    assert.deepEqual(got.goals.get(uuid(1))!.lastAudit, { at: '2026-01-01T00:05:00.000Z', verdict, error: null, auditor: 'openai/x' });
  });

  it('keeps each session\'s newest goal from a goals list in any order', () => {
    const older = goal(uuid(1), { id: 'gol_01aaaaaaaaaaaaaaaaaaaaaaaa', status: 'complete' });
    const newer = goal(uuid(1), { id: 'gol_01bbbbbbbbbbbbbbbbbbbbbbbb' });
    for (const list of [[older, newer], [newer, older]]) assert.equal(withGoals(emptyStreamState(), list).goals.get(uuid(1))!.id, newer.id);
  });

  it('every page event a client subscribes to (STATE_EVENTS) records the page as it now is', () => {
    const pageEvents = STATE_EVENTS.filter((t) => t.startsWith('page.'));
    assert.deepEqual([...pageEvents].sort(), ['page.answered', 'page.cancelled', 'page.delivered', 'page.dismissed', 'page.expired', 'page.opened']);
    for (const type of pageEvents) {
      const status = type === 'page.opened' ? 'pending' : type.slice('page.'.length);
      const got = applyEvent(emptyStreamState(), { type, data: page(1, { status: status as Page['status'] }) });
      assert.equal(got.pages.get(page(1).id)?.status, status, type);
    }
  });

  it('a hello asks for a refetch only when it says resync', () => {
    assert.equal(isResync({ type: 'daemon.hello', data: { resync: true } }), true);
    assert.equal(isResync({ type: 'daemon.hello', data: { resync: false } }), false);
    assert.equal(isResync({ type: 'daemon.hello', data: null }), false);
    assert.equal(isResync({ type: 'session.upserted', data: { resync: true } }), false);
  });
});
