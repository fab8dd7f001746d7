/**
 * The board's live state: sessions, pages and goals kept current by GET /api/events, through the
 * stream reducer the TUI shares (src/events/stream-state.ts); this hook is only the React plumbing
 * around it, plus the characters. The stream is subscribed first and the lists are fetched on its
 * `daemon.hello`; events that arrive while a list is on its way are held and applied again on top of
 * it (src/events/held-events.ts), so no event falls between a list and the stream. EventSource
 * reconnects by itself and sends Last-Event-ID; every `daemon.hello` after the first means we were
 * away, so everything is refetched (the daemon may have restarted with a fresh event log). A lost
 * connection is shown, never hidden.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from './api.ts';
import {
  applyEvent, createEventHold, emptyStreamState, indexingAfterListing, STATE_EVENTS, withGoalsListing, withPagesListing, withSessionsListing,
  type HeldEvent, type StreamState,
} from '../../src/events/index.ts';
import type { IndexingFigure } from '../../src/core/indexing.ts';
import type { BoardCharacters, Conn, FleetHost, Goal, GoalView, Page, Session } from './types.ts';

/** The fleet as the board shows it: this host's name while it belongs to one, and the other hosts. */
export interface BoardFleet {
  /** This host's name in the fleet, or null when it belongs to none (the board then looks as before). */
  self: string | null;
  /** Is this host connected to the fleet's database? */
  connected: boolean;
  hosts: FleetHost[];
}

export interface BoardData {
  /** Sessions by id: a new map on every change (unchanged sessions keep their identity). */
  sessions: ReadonlyMap<string, Session>;
  characters: BoardCharacters | null;
  /** Pending pages, oldest first. */
  pages: Page[];
  /** False when the daemon has no pager yet (404). */
  pagesAvailable: boolean;
  /** Each session's goal (one per session), by session id. */
  goals: Map<string, GoalView>;
  goalsAvailable: boolean;
  /** Records a goal the board just set or changed (the SSE echo then agrees); null clears it. */
  setGoal(sessionId: string, goal: Goal | null): void;
  conn: Conn;
  error: string | null;
  fleet: BoardFleet;
  refreshCharacters(): Promise<void>;
  refreshPages(): Promise<void>;
  /** Counts `usage.recorded` events (a turn ended, a transcript was read), so spend views refetch. */
  usageTick: number;
  /** The cold index's figure (a first start reading a long history); null before the first listing. */
  indexing: IndexingFigure | null;
}

export function useBoard(): BoardData {
  const [stream, setStream] = useState<StreamState>(emptyStreamState);
  const [characters, setCharacters] = useState<BoardCharacters | null>(null);
  const [pagesAvailable, setPagesAvailable] = useState(true);
  const [goalsAvailable, setGoalsAvailable] = useState(true);
  const [conn, setConn] = useState<Conn>('connecting');
  const [error, setError] = useState<string | null>(null);
  const [fleet, setFleet] = useState<BoardFleet>({ self: null, connected: false, hosts: [] });
  const [usageTick, setUsageTick] = useState(0);
  const [indexing, setIndexing] = useState<IndexingFigure | null>(null);
  const hold = useMemo(createEventHold, []);

  const refreshSessions = useCallback(async () => {
    const end = hold.begin();
    try {
      const r = await api<{ sessions: Session[]; indexing?: IndexingFigure; eventId?: number }>('GET', '/api/sessions');
      const held = hold.held();
      setStream((s) => withSessionsListing(s, r.sessions, r.eventId, held));
      setIndexing(indexingAfterListing(r.indexing ?? null, r.eventId, held));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      end();
    }
  }, [hold]);
  const refreshCharacters = useCallback(async () => {
    try {
      setCharacters(await api<BoardCharacters>('GET', '/api/characters'));
    } catch (e) {
      setError((e as Error).message);
    }
  }, []);
  const refreshPages = useCallback(async () => {
    const end = hold.begin();
    try {
      const r = await api<{ pages: Page[] }>('GET', '/api/pages?status=pending');
      const held = hold.held();
      setStream((s) => withPagesListing(s, r.pages, held));
      setPagesAvailable(true);
    } catch {
      setPagesAvailable(false);
    } finally {
      end();
    }
  }, [hold]);
  const refreshGoals = useCallback(async () => {
    const end = hold.begin();
    try {
      const r = await api<{ goals: Goal[] }>('GET', '/api/goals?limit=1000');
      const held = hold.held();
      setStream((s) => withGoalsListing(s, r.goals, held));
      setGoalsAvailable(true);
    } catch {
      setGoalsAvailable(false);
    } finally {
      end();
    }
  }, [hold]);
  const refreshFleet = useCallback(async () => {
    try {
      const r = await api<{ fleet: { joined: boolean; connected?: boolean; host: { name: string }; hosts?: FleetHost[] } }>('GET', '/api/fleet');
      setFleet(r.fleet.joined ? { self: r.fleet.host.name, connected: r.fleet.connected === true, hosts: (r.fleet.hosts ?? []).filter((h) => !h.self) } : { self: null, connected: false, hosts: [] });
    } catch {
      // An older daemon without a fleet: the board looks as it always did.
    }
  }, []);
  // Told as the event the daemon will also send, so the reducer decides (a clear names the goal it removes).
  const setGoal = useCallback((sessionId: string, goal: Goal | null) => {
    setStream((s) => {
      const current = s.goals.get(sessionId);
      if (goal) return applyEvent(s, { type: 'goal.updated', data: goal });
      return current ? applyEvent(s, { type: 'goal.updated', data: { ...current, cleared: true } }) : s;
    });
  }, []);

  useEffect(() => {
    void refreshCharacters();
    void refreshFleet();
    const refreshLists = (): void => {
      void refreshSessions();
      void refreshPages();
      void refreshGoals();
    };
    let hellos = 0;
    // The lists are fetched on the stream's hello; a stream that cannot connect still gets them, later.
    const unheard = setTimeout(() => {
      if (hellos === 0) refreshLists();
    }, 2000);
    const es = new EventSource('/api/events');
    const on = (type: string, fn: (data: unknown, id: number) => void) =>
      es.addEventListener(type, (ev) => {
        try {
          const m = ev as MessageEvent<string>;
          fn(JSON.parse(m.data), m.lastEventId === '' ? NaN : Number(m.lastEventId));
        } catch {
          // A malformed event must not break the stream; the next refetch corrects the view.
        }
      });
    on('daemon.hello', () => {
      setConn('live');
      clearTimeout(unheard);
      refreshLists();
      if (hellos++ > 0) {
        void refreshCharacters();
        void refreshFleet();
        setUsageTick((n) => n + 1);
      }
    });
    on('board.characters.changed', () => void refreshCharacters());
    // A scan stores records in bursts: one refetch per burst.
    let usageTimer: ReturnType<typeof setTimeout> | undefined;
    on('usage.recorded', () => {
      clearTimeout(usageTimer);
      usageTimer = setTimeout(() => setUsageTick((n) => n + 1), 250);
    });
    // The sessions of each indexed batch arrive as session.upserted; this is only the figure.
    on('index.progress.changed', (data, id) => {
      hold.hold({ type: 'index.progress.changed', data, id });
      setIndexing(data as IndexingFigure);
    });
    // Fleet: too many other hosts' records changed at once to send one by one — refetch them.
    on('fleet.resync', refreshLists);
    on('fleet.status.changed', () => void refreshFleet());
    on('fleet.hosts.changed', (data) => {
      const hosts = (data as { hosts?: FleetHost[] }).hosts;
      if (Array.isArray(hosts)) setFleet((f) => ({ ...f, hosts }));
    });
    for (const type of STATE_EVENTS) {
      on(type, (data, id) => {
        const e: HeldEvent = { type, data, at: new Date().toISOString(), id };
        hold.hold(e);
        setStream((s) => applyEvent(s, e));
      });
    }
    es.onerror = () => setConn('lost');
    return () => {
      es.close();
      clearTimeout(unheard);
      clearTimeout(usageTimer);
    };
  }, [hold, refreshSessions, refreshCharacters, refreshPages, refreshGoals, refreshFleet]);

  const pages = useMemo(() => pendingPages(stream.pages), [stream.pages]);
  const goals = useMemo(() => goalViews(stream.goals, stream.evaluating), [stream.goals, stream.evaluating]);
  return { sessions: stream.sessions, characters, pages, pagesAvailable, goals, goalsAvailable, setGoal, conn, error, fleet, refreshCharacters, refreshPages, usageTick, indexing };
}

/** The pages still waiting for the operator, oldest first (the map also holds those answered since the last fetch). */
function pendingPages(pages: ReadonlyMap<string, Page>): Page[] {
  const out: Page[] = [];
  for (const p of pages.values()) if (p.status === 'pending') out.push(p);
  return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Goals as the board shows them: a goal whose audit is running carries `evaluating` (the others keep their identity). */
function goalViews(goals: ReadonlyMap<string, Goal>, evaluating: ReadonlySet<string>): Map<string, GoalView> {
  const out = new Map<string, GoalView>(goals);
  for (const id of evaluating) {
    const g = goals.get(id);
    if (g) out.set(id, { ...g, evaluating: true });
  }
  return out;
}
