/**
 * A snapshot and the stream, joined without a gap. A client subscribes to GET /api/events first and
 * fetches a snapshot (GET /api/sessions, /pages, /goals) once the stream has said hello; events that
 * arrive while a snapshot is on its way are applied at once and also held, and when the snapshot comes
 * it replaces its map and the held events are applied on top of it again. Otherwise a snapshot taken
 * before an event but received after it would wipe it out: during a first start's cold index, whole
 * batches of sessions were missing from the board until a reload.
 *
 * The sessions listing says which event it reflects last (`eventId`): only later held events are applied
 * again, so a listing never goes back to an older state of a session. Pages and goals have no such id:
 * their held events are all applied again, which converges, since each carries its whole record.
 *
 * Pure and browser-safe, like stream-state.ts.
 */
import type { Session } from '../core/session.ts';
import type { Page } from '../pager/index.ts';
import type { Goal } from '../goals/index.ts';
import type { IndexingFigure } from '../core/indexing.ts';
import { applyEvent, withGoals, withPages, withSessions, type StreamEvent, type StreamState } from './stream-state.ts';

/** An event as the stream delivered it: its SSE id (NaN when it had none). */
export interface HeldEvent extends StreamEvent {
  id: number;
}

/** True when the listing, which reflects events up to `eventId`, does not reflect `e` yet. */
const after = (e: HeldEvent, eventId: number | undefined): boolean => eventId === undefined || !(e.id <= eventId);

/** The held events of one kind (`session.`, `page.`, `goal.`) the listing does not reflect, applied on top of it. */
function replayOnto<S extends StreamState>(listed: S, held: readonly HeldEvent[], kind: string, eventId?: number): S {
  let next = listed;
  for (const e of held) if (e.type.startsWith(kind) && after(e, eventId)) next = applyEvent(next, e);
  return next;
}

/** A sessions listing that reflects events up to `eventId` (undefined: not known, every held event is applied again). */
export function withSessionsListing<S extends StreamState>(state: S, list: readonly Session[], eventId: number | undefined, held: readonly HeldEvent[]): S {
  return replayOnto(withSessions(state, list), held, 'session.', eventId);
}

export function withPagesListing<S extends StreamState>(state: S, list: readonly Page[], held: readonly HeldEvent[]): S {
  return replayOnto(withPages(state, list), held, 'page.');
}

export function withGoalsListing<S extends StreamState>(state: S, list: readonly Goal[], held: readonly HeldEvent[]): S {
  return replayOnto(withGoals(state, list), held, 'goal.');
}

/**
 * The cold index's figure after a listing: the newest held `index.progress.changed` the listing does not
 * reflect, else the listing's own figure (so the figure never steps back).
 */
export function indexingAfterListing(listed: IndexingFigure | null, eventId: number | undefined, held: readonly HeldEvent[]): IndexingFigure | null {
  let figure = listed;
  for (const e of held) if (e.type === 'index.progress.changed' && after(e, eventId) && typeof e.data === 'object' && e.data !== null) figure = e.data as IndexingFigure;
  return figure;
}

/**
 * The events held while snapshots are on their way: `begin()` when one is fetched (returns its `end`),
 * `hold(e)` for every event the stream delivers; held events are dropped once no snapshot is on its way.
 */
export interface EventHold {
  begin(): () => void;
  hold(e: HeldEvent): void;
  /** What is held now (a copy). */
  held(): HeldEvent[];
}

export function createEventHold(): EventHold {
  let open = 0;
  let events: HeldEvent[] = [];
  return {
    begin() {
      open++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        if (--open === 0) events = [];
      };
    },
    hold(e) {
      if (open > 0) events.push(e);
    },
    held: () => [...events],
  };
}
