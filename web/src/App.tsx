/**
 * The board: a top bar (connection, who needs you, today's spend, inbox, views), the list, the canvas
 * or the Spend view, and the session panel. The canvas (Excalidraw) and the Spend view are separate
 * chunks loaded only when opened, so the list view stays light.
 */
import { Suspense, lazy, useCallback, useEffect, useMemo, useState } from 'react';
import { CharactersDialog } from './characters-dialog.tsx';
import { NewSessionDialog, type StartedSession } from './new-session-dialog.tsx';
import { Inbox } from './inbox.tsx';
import { ListView } from './list-view.tsx';
import { SessionPanel } from './session-panel.tsx';
import { useBoard } from './use-board.ts';
import { useTheme } from './theme.ts';
import { TodaySpend } from './today-spend.tsx';
import { IndexProgress } from './index-progress.tsx';
import type { Page, Session } from './types.ts';

import type { TranscriptTarget } from './search/transcript-panel.tsx';

const CanvasView = lazy(() => import('./canvas/canvas-view.tsx'));
const SearchResults = lazy(() => import('./search/search-results.tsx'));
const TranscriptPanel = lazy(() => import('./search/transcript-panel.tsx'));
const SpendView = lazy(() => import('./spend/spend-view.tsx'));
type View = 'list' | 'canvas' | 'spend';
const viewFromHash = (): View => (location.hash === '#canvas' ? 'canvas' : location.hash === '#spend' ? 'spend' : 'list');

/** The list narrowed to the sessions of one Spend bar. */
interface Scope { label: string; ids: Set<string> }

export function App() {
  const data = useBoard();
  const theme = useTheme();
  const [view, setView] = useState<View>(viewFromHash);
  /** The open session's id. */
  const [selected, setSelected] = useState<string | null>(null);
  const [showCharacters, setShowCharacters] = useState(false);
  const [scope, setScope] = useState<Scope | null>(null);
  const [showNew, setShowNew] = useState(false);
  /** What the last start did, in a sentence. */
  const [notice, setNotice] = useState<string | null>(null);
  /** A session started with "Focus it": its panel opens once it is listed. */
  const [toSelect, setToSelect] = useState<string | null>(null);
  const [now, setNow] = useState(Date.now());
  /** The transcript search being shown, and the transcript open (from a hit or a session). */
  const [searchText, setSearchText] = useState('');
  const [query, setQuery] = useState<string | null>(null);
  const [transcript, setTranscript] = useState<TranscriptTarget | null>(null);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 15_000);
    const onHash = () => setView(viewFromHash());
    window.addEventListener('hashchange', onHash);
    return () => (clearInterval(t), window.removeEventListener('hashchange', onHash));
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && (setSelected(null), setTranscript(null));
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const sessions = useMemo(() => [...data.sessions.values()], [data.sessions]);
  const listed = useMemo(() => (scope ? sessions.filter((s) => scope.ids.has(s.id)) : sessions), [sessions, scope]);
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
  const open = useCallback((s: Session) => (setTranscript(null), setSelected(s.id)), []);
  const read = useCallback((s: Session) => setTranscript({ harness: s.harness, id: s.id, title: s.title, position: null }), []);
  const submitSearch = (e: React.FormEvent) => {
    e.preventDefault();
    const q = searchText.trim();
    setQuery(q === '' ? null : q);
  };
  const { refreshPages } = data;
  const pagesChanged = useCallback(() => void refreshPages(), [refreshPages]);
  const go = (v: View) => {
    location.hash = v === 'list' ? '' : v;
    setView(v);
  };
  const pickSpend = useCallback((pick: Scope) => {
    setScope(pick);
    location.hash = '';
    setView('list');
  }, []);
  const current = selected ? data.sessions.get(selected) : undefined;
  useEffect(() => {
    if (toSelect && data.sessions.has(toSelect)) {
      setSelected(toSelect);
      setToSelect(null);
    }
  }, [toSelect, data.sessions]);
  const started = (r: StartedSession, focus: boolean) => {
    setShowNew(false);
    const where = r.worktree ? `${r.cwd} (new worktree, branch ${r.worktree.branch})` : r.cwd;
    const id = r.sessionId ? '' : ' It is listed once it reports its session.';
    const focused = r.focus && r.focus.outcome !== 'focused' ? ` Its pane was not brought to the front: ${r.focus.message ?? r.focus.outcome}.` : '';
    setNotice(`Started ${r.harness} in ${r.manager} pane ${r.pane.id}, in ${where}.${id}${r.goalPending ? ' Its goal is set once it does.' : ''}${focused}`);
    if (focus && r.sessionId) setToSelect(r.sessionId);
  };

  return (
    <div className={`board view-${view}${current || transcript ? ' with-panel' : ''}`}>
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
        <IndexProgress figure={data.indexing} />
        <TodaySpend tick={data.usageTick} onOpen={() => go('spend')} />
        <nav className="views" aria-label="views">
          <button type="button" className={view === 'list' ? 'on' : ''} onClick={() => go('list')} data-testid="view-list">List</button>
          <button type="button" className={view === 'canvas' ? 'on' : ''} onClick={() => go('canvas')} data-testid="view-canvas">Canvas</button>
          <button type="button" className={view === 'spend' ? 'on' : ''} onClick={() => go('spend')} data-testid="view-spend">Spend</button>
        </nav>
        <form className="transcript-search" role="search" onSubmit={submitSearch}>
          <input type="search" value={searchText} onChange={(e) => setSearchText(e.target.value)} placeholder="Search transcripts" aria-label="search transcripts" data-testid="transcript-search" />
        </form>
        <Inbox pages={data.pages} available={data.pagesAvailable} sessionsById={data.sessions} onChanged={pagesChanged} />
        <button type="button" onClick={() => setShowNew(true)} data-testid="open-new-session">New session</button>
        <button type="button" className="quiet" onClick={() => setShowCharacters(true)} data-testid="open-characters">Characters</button>
        <button type="button" className="quiet" onClick={theme.cycle} title="colour scheme" data-testid="theme">{theme.setting === 'system' ? '◐ auto' : theme.setting === 'dark' ? '☾ dark' : '☀ light'}</button>
      </header>
      {data.error && <p className="error banner" role="alert">{data.error}</p>}
      {notice && <p className="notice banner" role="status" data-testid="notice">{notice} <button type="button" className="quiet" onClick={() => setNotice(null)} aria-label="dismiss">✕</button></p>}
      <main>
        {query !== null && (
          <Suspense fallback={<p className="muted loading">Loading search…</p>}>
            <SearchResults query={query} onOpen={(t) => (setSelected(null), setTranscript(t))} onClose={() => setQuery(null)} />
          </Suspense>
        )}
        {view === 'list' ? (
          <ListView sessions={listed} board={data.characters} now={now} selectedId={selected} pagesBySession={pagesBySession} goalsBySession={data.goals} onOpen={open} onPagesChanged={pagesChanged} fleet={data.fleet}
            scope={scope ? { label: scope.label, onClear: () => setScope(null) } : undefined} />
        ) : view === 'spend' ? (
          <Suspense fallback={<p className="muted loading">Loading the Spend view…</p>}>
            <SpendView tick={data.usageTick} sessions={data.sessions} onPick={pickSpend} onOpen={open} />
          </Suspense>
        ) : (
          <Suspense fallback={<p className="muted loading">Loading the canvas…</p>}>
            <CanvasView sessions={sessions} board={data.characters} theme={theme.effective} pagesBySession={pagesBySession} goalsBySession={data.goals} onOpen={open} onPagesChanged={pagesChanged} />
          </Suspense>
        )}
        {transcript ? (
          <Suspense fallback={<p className="muted loading">Loading the transcript…</p>}>
            <TranscriptPanel key={`${transcript.harness}:${transcript.id}:${transcript.position ?? ''}`} target={transcript} onClose={() => setTranscript(null)} />
          </Suspense>
        ) : current && (
          <SessionPanel onRead={read} session={current} board={data.characters} pages={data.pages} goal={data.goals.get(current.id)} goalsAvailable={data.goalsAvailable} onGoal={data.setGoal} now={now} onClose={() => setSelected(null)} onPagesChanged={pagesChanged}
            parent={current.forkedFrom ? data.sessions.get(current.forkedFrom) : undefined} onOpen={open} />
        )}
      </main>
      {/* A new session starts on this host: another host's directories are not offered. */}
      {showNew && <NewSessionDialog sessions={sessions.filter((s) => !s.hostId)} from={current?.hostId ? undefined : current} onStarted={started} onClose={() => setShowNew(false)} />}
      {showCharacters && data.characters && <CharactersDialog board={data.characters} onClose={() => setShowCharacters(false)} onChanged={() => void data.refreshCharacters()} />}
    </div>
  );
}
