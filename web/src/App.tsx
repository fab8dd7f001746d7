/**
 * The board: a top bar (connection, who needs you, inbox, views), the list or the canvas, and the
 * session panel. The canvas (Excalidraw) is a separate chunk loaded only when opened, so the list
 * view stays light.
 */
import { Suspense, lazy, useCallback, useEffect, useMemo, useState } from 'react';
import { CharactersDialog } from './characters-dialog.tsx';
import { Inbox } from './inbox.tsx';
import { ListView } from './list-view.tsx';
import { SessionPanel } from './session-panel.tsx';
import { useBoard } from './use-board.ts';
import { useTheme } from './theme.ts';
import type { Page, Session } from './types.ts';

const CanvasView = lazy(() => import('./canvas/canvas-view.tsx'));
type View = 'list' | 'canvas';
const viewFromHash = (): View => (location.hash === '#canvas' ? 'canvas' : 'list');

export function App() {
  const data = useBoard();
  const theme = useTheme();
  const [view, setView] = useState<View>(viewFromHash);
  /** The open session's id. */
  const [selected, setSelected] = useState<string | null>(null);
  const [showCharacters, setShowCharacters] = useState(false);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 15_000);
    const onHash = () => setView(viewFromHash());
    window.addEventListener('hashchange', onHash);
    return () => (clearInterval(t), window.removeEventListener('hashchange', onHash));
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setSelected(null);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const sessions = useMemo(() => [...data.sessions.values()], [data.sessions]);
  const pagesBySession = useMemo(() => {
    const m = new Map<string, Page[]>();
    for (const p of data.pages) if (p.sessionId) m.set(p.sessionId, [...(m.get(p.sessionId) ?? []), p]);
    return m;
  }, [data.pages]);
  const counts = useMemo(() => {
    const c = { waiting: 0, working: 0, live: 0 };
    for (const s of sessions) {
      if (s.status === 'waiting') c.waiting++;
      if (s.status === 'working') c.working++;
      if (s.live) c.live++;
    }
    return c;
  }, [sessions]);
  const open = useCallback((s: Session) => setSelected(s.id), []);
  const { refreshPages } = data;
  const pagesChanged = useCallback(() => void refreshPages(), [refreshPages]);
  const go = (v: View) => {
    location.hash = v === 'canvas' ? 'canvas' : '';
    setView(v);
  };
  const current = selected ? data.sessions.get(selected) : undefined;

  return (
    <div className={`board view-${view}${current ? ' with-panel' : ''}`}>
      <header className="topbar">
        <h1>Muster</h1>
        <span className={`conn conn-${data.conn}`} data-testid="connection">
          {data.conn === 'live' ? 'live' : data.conn === 'lost' ? 'connection lost — retrying' : 'connecting…'}
        </span>
        {data.fleet.self !== null && (
          <span className={`fleet${data.fleet.connected ? '' : ' bad'}`} data-testid="fleet" title={data.fleet.hosts.map((h) => `${h.name}: ${h.reachable ? 'reachable' : 'unreachable'}${h.acceptCommands ? '' : ', read-only'}`).join('\n')}>
            {data.fleet.connected ? `fleet · ${data.fleet.self} + ${data.fleet.hosts.length} host${data.fleet.hosts.length === 1 ? '' : 's'}` : 'fleet database unreachable — working alone'}
            {data.fleet.hosts.some((h) => !h.reachable) && ` (${data.fleet.hosts.filter((h) => !h.reachable).length} unreachable)`}
          </span>
        )}
        <span className="tally" data-testid="tally">
          <b className={counts.waiting > 0 ? 'need' : ''}>{counts.waiting} waiting</b> · {counts.working} working · {counts.live} live · {sessions.length} total
        </span>
        <nav className="views" aria-label="views">
          <button type="button" className={view === 'list' ? 'on' : ''} onClick={() => go('list')} data-testid="view-list">List</button>
          <button type="button" className={view === 'canvas' ? 'on' : ''} onClick={() => go('canvas')} data-testid="view-canvas">Canvas</button>
        </nav>
        <Inbox pages={data.pages} available={data.pagesAvailable} sessionsById={data.sessions} onChanged={pagesChanged} />
        <button type="button" className="quiet" onClick={() => setShowCharacters(true)} data-testid="open-characters">Characters</button>
        <button type="button" className="quiet" onClick={theme.cycle} title="colour scheme" data-testid="theme">{theme.setting === 'system' ? '◐ auto' : theme.setting === 'dark' ? '☾ dark' : '☀ light'}</button>
      </header>
      {data.error && <p className="error banner" role="alert">{data.error}</p>}
      <main>
        {view === 'list' ? (
          <ListView sessions={sessions} board={data.characters} now={now} selectedId={selected} pagesBySession={pagesBySession} goalsBySession={data.goals} onOpen={open} onPagesChanged={pagesChanged} fleet={data.fleet} />
        ) : (
          <Suspense fallback={<p className="muted loading">Loading the canvas…</p>}>
            <CanvasView sessions={sessions} board={data.characters} theme={theme.effective} pagesBySession={pagesBySession} goalsBySession={data.goals} onOpen={open} onPagesChanged={pagesChanged} />
          </Suspense>
        )}
        {current && (
          <SessionPanel session={current} board={data.characters} pages={data.pages} goal={data.goals.get(current.id)} goalsAvailable={data.goalsAvailable} onGoal={data.setGoal} now={now} onClose={() => setSelected(null)} onPagesChanged={pagesChanged}
            parent={current.forkedFrom ? data.sessions.get(current.forkedFrom) : undefined} onOpen={open} />
        )}
      </main>
      {showCharacters && data.characters && <CharactersDialog board={data.characters} onClose={() => setShowCharacters(false)} onChanged={() => void data.refreshCharacters()} />}
    </div>
  );
}
