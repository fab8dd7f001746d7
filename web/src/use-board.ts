/**
 * The board's live state: sessions, characters and pending pages, fetched once and then kept
 * current by GET /api/events. EventSource reconnects by itself and sends Last-Event-ID; every
 * `daemon.hello` after the first means we were away, so everything is refetched (the daemon may have
 * restarted with a fresh event log). A lost connection is shown, never hidden.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from './api.ts';
import { keyOf, type BoardCharacters, type Conn, type Page, type Session } from './types.ts';

export interface BoardData {
  sessions: Map<string, Session>;
  /** Bumped on every change of `sessions` (the map is mutated in place for 1,000-row speed). */
  version: number;
  characters: BoardCharacters | null;
  pages: Page[];
  /** False when the daemon has no pager yet (404). */
  pagesAvailable: boolean;
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

  useEffect(() => {
    void refreshSessions();
    void refreshCharacters();
    void refreshPages();
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
    for (const t of ['page.opened', 'page.answered', 'page.delivered', 'page.expired', 'page.dismissed']) on(t, () => void refreshPages());
    es.onerror = () => setConn('lost');
    return () => es.close();
  }, [refreshSessions, refreshCharacters, refreshPages]);

  return { sessions: sessions.current, version, characters, pages, pagesAvailable, conn, error, refreshCharacters, refreshPages };
}
