import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEventHold, indexingAfterListing, withGoalsListing, withPagesListing, withSessionsListing, type HeldEvent } from './held-events.ts';
import { applyEvent, emptyStreamState, withSessions } from './stream-state.ts';
import type { IndexingFigure } from '../core/indexing.ts';
import { goal, page, session, uuid } from '../tui/tui-fixtures.test-support.ts';

const upsert = (id: number, s: ReturnType<typeof session>): HeldEvent => ({ type: 'session.upserted', data: { session: s }, id });
const figure = (done: number): IndexingFigure => ({ active: true, done, total: 640, bytesDone: done, bytesTotal: 640 });

describe('a listing joined to the events held while it was on its way', () => {
  it('keeps a session whose upsert came before a listing taken earlier (the cold index\'s missing batches)', () => {
    // The client applied event 7 (session 3 indexed) at once; the listing, taken at event 6, arrives after it.
    const e = upsert(7, session(3, { title: 'indexed' }));
    const before = applyEvent(withSessions(emptyStreamState(), [session(1)]), e);
    const listing = [session(1), session(2)];
    assert.deepEqual([...withSessions(before, listing).sessions.keys()].sort(), [uuid(1), uuid(2)], 'replacing alone loses session 3');
    const got = withSessionsListing(before, listing, 6, [e]);
    assert.deepEqual([...got.sessions.keys()].sort(), [uuid(1), uuid(2), uuid(3)]);
    assert.equal(got.sessions.get(uuid(3))?.title, 'indexed');
  });

  it('does not apply again a held event the listing already reflects (no step back to an older state)', () => {
    const working = upsert(4, session(2, { status: 'working' }));
    // Taken at event 5, which made session 2 idle (its own event is still on its way).
    const got = withSessionsListing(emptyStreamState(), [session(2, { status: 'idle' })], 5, [working]);
    assert.equal(got.sessions.get(uuid(2))?.status, 'idle');
    const removedLater: HeldEvent = { type: 'session.removed', data: { harness: 'claude', id: uuid(2) }, id: 6 };
    assert.equal(withSessionsListing(emptyStreamState(), [session(2)], 5, [working, removedLater]).sessions.has(uuid(2)), false, 'a later removal applies');
  });

  it('applies every held session event when the listing names no event id (an older daemon), and only session events', () => {
    const p: HeldEvent = { type: 'page.opened', data: page(1), id: 3 };
    const got = withSessionsListing(emptyStreamState(), [session(1)], undefined, [upsert(2, session(2)), p]);
    assert.deepEqual([...got.sessions.keys()].sort(), [uuid(1), uuid(2)]);
    assert.equal(got.pages.size, 0, 'a page event waits for the pages listing');
  });

  it('pages and goals listings take their held events again', () => {
    const opened: HeldEvent = { type: 'page.opened', data: page(2), id: 9 };
    assert.deepEqual([...withPagesListing(emptyStreamState(), [page(1)], [opened]).pages.keys()].sort(), [page(1).id, page(2).id].sort());
    const g = goal(uuid(1));
    const set: HeldEvent = { type: 'goal.updated', data: g, id: 4 };
    assert.equal(withGoalsListing(emptyStreamState(), [], [set]).goals.get(uuid(1))?.id, g.id);
  });

  it('the cold index\'s figure never steps back to the listing\'s older one', () => {
    const held: HeldEvent[] = [{ type: 'index.progress.changed', data: figure(90), id: 4 }, { type: 'index.progress.changed', data: figure(120), id: 6 }];
    assert.equal(indexingAfterListing(figure(100), 5, held)?.done, 120);
    assert.equal(indexingAfterListing(figure(100), 5, held.slice(0, 1))?.done, 100);
    assert.equal(indexingAfterListing(null, 7, held), null);
  });
});

describe('the hold', () => {
  it('holds events only while a listing is on its way, until the last one ends', () => {
    const hold = createEventHold();
    hold.hold(upsert(1, session(1)));
    assert.equal(hold.held().length, 0, 'nothing is on its way');
    const endA = hold.begin();
    const endB = hold.begin();
    hold.hold(upsert(2, session(2)));
    endA();
    endA();
    hold.hold(upsert(3, session(3)));
    assert.deepEqual(hold.held().map((e) => e.id), [2, 3], 'B is still on its way (and ending A twice counts once)');
    endB();
    assert.equal(hold.held().length, 0);
  });
});
