/**
 * The board's live state: sessions, characters and pending pages, fetched once and then kept
 * current by GET /api/events. EventSource reconnects by itself and sends Last-Event-ID; every
 * `daemon.hello` after the first means we were away, so everything is refetched (the daemon may have
 * restarted with a fresh event log). A lost connection is shown, never hidden.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from './api.ts';
import { keyOf, type BoardCharacters, type Conn, type Goal, type GoalView, type LastAudit, type Page, type Session } from './types.ts';

export interface BoardData {
  sessions: Map<string, Session>;
  /** Bumped on every change of `sessions` (the map is mutated in place for 1,000-row speed). */
  version: number;
  characters: BoardCharacters | null;
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
  refreshCharacters(): Promise<void>;
  refreshPages(): Promise<void>;
}

interface StatusChange { harness: Session['harness']; id: string; status: Session['status']; waitingFor: string | null; live: boolean; statusSince: string | null }

export function useBoard(): BoardData {
  const sessions = useRef(new Map<string, Session>());
  const [version, setVersion] = useState(0);
  const [characters, setCharacters] = useState<BoardCharacters | null>(null);
  const [pages, setPages] = useState<Page[]>([]);
  const [pagesAvailable, setPagesAvailable] = useState(true);
  const [goals, setGoals] = useState<Map<string, GoalView>>(new Map());
  const [goalsAvailable, setGoalsAvailable] = useState(true);
  const [conn, setConn] = useState<Conn>('connecting');
  const [error, setError] = useState<string | null>(null);
  const bump = () => setVersion((v) => v + 1);

  const refreshSessions = useCallback(async () => {
    try {
      const r = await api<{ sessions: Session[] }>('GET', '/api/sessions');
      sessions.current = new Map(r.sessions.map((s) => [keyOf(s), s]));
      setError(null);
      bump();
    } catch (e) {
      setError((e as Error).message);
    }
  }, []);
  const refreshCharacters = useCallback(async () => {
    try {
      setCharacters(await api<BoardCharacters>('GET', '/api/characters'));
    } catch (e) {
      setError((e as Error).message);
    }
  }, []);
  const refreshPages = useCallback(async () => {
    try {
      setPages((await api<{ pages: Page[] }>('GET', '/api/pages?status=pending')).pages);
      setPagesAvailable(true);
    } catch {
      setPagesAvailable(false);
    }
  }, []);

  const refreshGoals = useCallback(async () => {
    try {
      const r = await api<{ goals: Goal[] }>('GET', '/api/goals?limit=1000');
      // Newest first from the store: the first goal seen for a session is its current one.
      const m = new Map<string, GoalView>();
      for (const g of r.goals) if (!m.has(g.sessionId)) m.set(g.sessionId, g);
      setGoals(m);
      setGoalsAvailable(true);
    } catch {
      setGoalsAvailable(false);
    }
  }, []);
  const setGoal = useCallback((sessionId: string, goal: Goal | null) => {
    setGoals((m) => withGoal(m, sessionId, goal && { ...m.get(sessionId), ...goal }));
  }, []);

  useEffect(() => {
    void refreshSessions();
    void refreshCharacters();
    void refreshPages();
    void refreshGoals();
    let hellos = 0;
    const es = new EventSource('/api/events');
    const on = (type: string, fn: (data: unknown) => void) =>
      es.addEventListener(type, (ev) => {
        try {
          fn(JSON.parse((ev as MessageEvent<string>).data));
        } catch {
          // A malformed event must not break the stream; the next refetch corrects the view.
        }
      });
    on('daemon.hello', () => {
      setConn('live');
      if (hellos++ > 0) {
        void refreshSessions();
        void refreshCharacters();
        void refreshPages();
        void refreshGoals();
      }
    });
    on('session.upserted', (d) => {
      const s = (d as { session: Session }).session;
      sessions.current.set(keyOf(s), s);
      bump();
    });
    on('session.removed', (d) => {
      sessions.current.delete(keyOf(d as Pick<Session, 'harness' | 'id'>));
      bump();
    });
    on('session.status.changed', (d) => {
      const c = d as StatusChange;
      const old = sessions.current.get(keyOf(c));
      if (!old) return;
      sessions.current.set(keyOf(c), { ...old, status: c.status, waitingFor: c.waitingFor, live: c.live, statusSince: c.statusSince });
      bump();
    });
    on('board.characters.changed', () => void refreshCharacters());
    // Pages arrive whole in their events: the pending list (and the inbox count) is kept exact from them.
    for (const t of ['page.opened', 'page.answered', 'page.delivered', 'page.expired', 'page.cancelled', 'page.dismissed']) {
      on(t, (d) => setPages((list) => withPage(list, d as Page)));
    }
    on('goal.updated', (d) => {
      const g = d as Goal & { cleared?: boolean };
      setGoals((m) => withGoal(m, g.sessionId, g.cleared ? null : { ...g, evaluating: m.get(g.sessionId)?.evaluating }));
    });
    on('goal.settled', (d) => setGoal((d as Goal).sessionId, d as Goal));
    on('goal.evaluating', (d) => {
      const e = d as { sessionId: string; evaluating: boolean };
      setGoals((m) => { const g = m.get(e.sessionId); return g ? withGoal(m, e.sessionId, { ...g, evaluating: e.evaluating }) : m; });
    });
    on('goal.audited', (d) => {
      const a = d as Omit<LastAudit, 'at'> & { sessionId: string };
      const lastAudit: LastAudit = { at: new Date().toISOString(), verdict: a.verdict, error: a.error, auditor: a.auditor };
      setGoals((m) => { const g = m.get(a.sessionId); return g ? withGoal(m, a.sessionId, { ...g, lastAudit }) : m; });
    });
    es.onerror = () => setConn('lost');
    return () => es.close();
  }, [refreshSessions, refreshCharacters, refreshPages, refreshGoals, setGoal]);

  return { sessions: sessions.current, version, characters, pages, pagesAvailable, goals, goalsAvailable, setGoal, conn, error, refreshCharacters, refreshPages };
}

/** The pending list after a page event: a pending page is added or replaced; any other status leaves. */
export function withPage(list: Page[], page: Page): Page[] {
  const rest = list.filter((p) => p.id !== page.id);
  return page.status === 'pending' ? [...rest, page].sort((a, b) => a.createdAt.localeCompare(b.createdAt)) : rest.length === list.length ? list : rest;
}

function withGoal(m: Map<string, GoalView>, sessionId: string, goal: GoalView | null): Map<string, GoalView> {
  const next = new Map(m);
  if (goal) next.set(sessionId, goal);
  else next.delete(sessionId);
  return next;
}
