/**
 * The default view: a dense, sortable table of every session — waiting first — with filters,
 * search and keyboard navigation (↑/↓ or j/k to move, Enter to open, / to search). The table is
 * virtualised: only the rows in the scrolled window (plus a small overscan) are in the DOM, between
 * two spacer rows, so 1,000 sessions cost what 30 do. Row order is patched, not re-sorted, when a
 * live change leaves it valid (list-order.ts).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { STATUS_RANK, basename } from './format.ts';
import { harnessLabels, harnessNames } from './harnesses.ts';
import { groupByHost, NO_FILTERS, orderRows, SELF, type Filters, type ListItem, type Ordered, type Sort, type SortKey } from './list-order.ts';
import { ROW_H, Row } from './list-row.tsx';
import { keyOf, type BoardCharacters, type GoalView, type Page, type Session } from './types.ts';
import type { BoardFleet } from './use-board.ts';

export { NO_FILTERS, filterSessions, type Filters } from './list-order.ts';

/** Rows rendered above and below the visible window. */
const OVERSCAN = 8;

export interface ListViewProps {
  sessions: Session[];
  board: BoardCharacters | null;
  now: number;
  /** The open session's id. */
  selectedId: string | null;
  pagesBySession: Map<string, Page[]>;
  goalsBySession: Map<string, GoalView>;
  onOpen(s: Session): void;
  onPagesChanged(): void;
  /** In a fleet: a host column and filter, and rows grouped by host, then repo. */
  fleet?: BoardFleet;
  /** When the list is narrowed from outside (a Spend bar): what to call it, and how to widen it again. */
  scope?: { label: string; onClear(): void };
}

/** The scrolled window of the table body: which rows are visible. */
function useWindow(scroller: React.RefObject<HTMLElement | null>, body: React.RefObject<HTMLElement | null>) {
  const [win, setWin] = useState({ top: 0, height: typeof window === 'undefined' ? 800 : window.innerHeight });
  const measure = useCallback(() => {
    const el = scroller.current;
    const b = body.current;
    if (!el || !b) return;
    // The body's offset inside the scroller (filters and header above it), so scrollTop maps to a row.
    const top = el.scrollTop - (b.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop);
    setWin((w) => (w.top === top && w.height === el.clientHeight ? w : { top, height: el.clientHeight }));
  }, [scroller, body]);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    el.addEventListener('scroll', measure, { passive: true });
    return () => (ro.disconnect(), el.removeEventListener('scroll', measure));
  }, [scroller, measure]);
  return win;
}

export function ListView({ sessions, board, now, selectedId, pagesBySession, goalsBySession, onOpen, onPagesChanged, fleet, scope }: ListViewProps) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [sort, setSort] = useState<Sort>({ key: 'status', dir: 1 });
  const [cursor, setCursor] = useState(0);
  const search = useRef<HTMLInputElement>(null);
  const scroller = useRef<HTMLElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const order = useRef<Ordered | null>(null);
  const repos = useMemo(() => [...new Set(sessions.map((s) => s.repoRoot ?? s.cwd).filter((r): r is string => !!r))].sort(), [sessions]);
  const rows = useMemo(() => (order.current = orderRows(order.current, sessions, filters, sort)).rows, [sessions, filters, sort]);
  const self = fleet?.self ?? null;
  const inFleet = self !== null || sessions.some((s) => s.hostId);
  const hostState = useMemo(() => new Map((fleet?.hosts ?? []).map((h) => [h.name, h])), [fleet?.hosts]);
  const hostNames = useMemo(() => [...new Set([...(fleet?.hosts ?? []).map((h) => h.name), ...sessions.flatMap((s) => (s.hostId && s.host ? [s.host] : []))])].sort(), [fleet?.hosts, sessions]);
  // In a fleet the list is grouped by host, then repo (headers are rows of the same height, so the
  // virtual window still counts in rows); outside one every line is a session, as before.
  const items: ListItem[] = useMemo(() => (inFleet ? groupByHost(rows, self, hostState) : rows.map((s, i) => ({ kind: 'row' as const, key: keyOf(s), s, row: i }))), [inFleet, rows, self, hostState]);
  const itemOfRow = useMemo(() => {
    const m = new Map<number, number>();
    items.forEach((it, i) => it.kind === 'row' && m.set(it.row, i));
    return m;
  }, [items]);
  const win = useWindow(scroller, body);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
      if (e.key === '/' && !typing) {
        e.preventDefault();
        search.current?.focus();
        return;
      }
      // Keys typed into the panel's forms (goal, page answers) and the transcript search box are theirs, not the list's.
      if (e.target instanceof HTMLElement && e.target.closest('.panel, .page-pop, .dialog, .inbox-pop, .transcript-search')) return;
      if (typing && e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Enter') return;
      if (e.key === 'ArrowDown' || (!typing && e.key === 'j')) setCursor((c) => Math.min(rows.length - 1, c + 1));
      else if (e.key === 'ArrowUp' || (!typing && e.key === 'k')) setCursor((c) => Math.max(0, c - 1));
      else if (e.key === 'Enter' && rows[cursor]) onOpen(rows[cursor]);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [rows, cursor, onOpen]);
  useEffect(() => {
    // Keep the cursor row in view (it may not be rendered yet, so scroll by arithmetic).
    const el = scroller.current;
    const b = body.current;
    if (!el || !b) return;
    const bodyTop = b.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
    // The filters bar (48 px) and the table header stick above the rows.
    const sticky = 48 + (b.parentElement?.querySelector('thead')?.getBoundingClientRect().height ?? 0);
    const rowTop = bodyTop + (itemOfRow.get(cursor) ?? cursor) * ROW_H;
    if (rowTop - sticky < el.scrollTop) el.scrollTop = rowTop - sticky;
    else if (rowTop + ROW_H > el.scrollTop + el.clientHeight) el.scrollTop = rowTop + ROW_H - el.clientHeight;
  }, [cursor, itemOfRow]);

  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setFilters((f) => ({ ...f, [k]: e.target.value }));
  const header = (key: SortKey, label: string, cls = '') => (
    <th className={cls} aria-sort={sort.key === key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
      <button type="button" onClick={() => setSort((s) => ({ key, dir: s.key === key ? (-s.dir as 1 | -1) : 1 }))}>
        {label}
        {sort.key === key ? (sort.dir === 1 ? ' ▾' : ' ▴') : ''}
      </button>
    </th>
  );
  const cursorKey = rows[cursor] ? keyOf(rows[cursor]) : null;
  const first = Math.max(0, Math.floor(win.top / ROW_H) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((win.top + win.height) / ROW_H) + OVERSCAN);
  const visible = items.slice(first, last);
  const cols = inFleet ? 10 : 9;

  return (
    <section className="list-view" data-testid="list-view" ref={scroller}>
      <div className="filters">
        <input ref={search} type="search" placeholder="Search title, repo, branch, id…  ( / )" value={filters.q} onChange={set('q')} aria-label="search" data-testid="search" />
        <select value={filters.harness} onChange={set('harness')} aria-label="harness">
          <option value="">all harnesses</option>
          {harnessNames().map((h) => <option key={h} value={h}>{h}</option>)}
        </select>
        <select value={filters.status} onChange={set('status')} aria-label="status">
          <option value="">any status</option>
          {Object.keys(STATUS_RANK).map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <select value={filters.repo} onChange={set('repo')} aria-label="repo">
          <option value="">all repos</option>
          {repos.map((r) => <option key={r} value={r}>{basename(r)}</option>)}
        </select>
        {inFleet && (
          <select value={filters.host} onChange={set('host')} aria-label="host" data-testid="host-filter">
            <option value="">all hosts</option>
            {self !== null && <option value={SELF}>{self} (this host)</option>}
            {hostNames.filter((h) => h !== self).map((h) => <option key={h} value={h}>{h}</option>)}
          </select>
        )}
        <select value={filters.live} onChange={set('live')} aria-label="live">
          <option value="">live and ended</option>
          <option value="true">live only</option>
          <option value="false">ended only</option>
        </select>
        {scope && (
          <span className="scope-chip" data-testid="list-scope">
            {scope.label}
            <button type="button" className="quiet" onClick={scope.onClear} aria-label="show every session" data-testid="list-scope-clear">✕</button>
          </span>
        )}
        <span className="muted count" data-testid="row-count">{rows.length} of {sessions.length}</span>
      </div>
      <table className="sessions" aria-rowcount={rows.length}>
        <thead>
          <tr>
            {inFleet && <th className="c-host">Host</th>}
            {header('harness', '', 'c-mark')}
            <th className="c-face" />
            {header('title', 'Session')}
            {header('repo', 'Repo · branch')}
            {header('status', 'Status')}
            {header('tokens', 'Tokens', 'num')}
            {header('cost', 'Cost', 'num')}
            {header('activity', 'Active', 'num')}
            <th>Live</th>
          </tr>
        </thead>
        <tbody ref={body} className={cursorKey ? '' : 'no-cursor'}>
          {first > 0 && <tr className="spacer" aria-hidden="true" style={{ height: first * ROW_H }}><td colSpan={cols} /></tr>}
          {visible.map((it) => {
            if (it.kind === 'host') {
              return (
                <tr key={it.key} className={`group host-group${it.reachable ? '' : ' unreachable'}`} data-testid="host-group" data-host={it.host}>
                  <td colSpan={cols}><b>{it.host}</b>{it.self && <span className="muted"> · this host</span>} <span className="muted">· {it.count} session{it.count === 1 ? '' : 's'}</span>
                    {!it.reachable && <span className="badge bad"> unreachable — last known state</span>}{it.readOnly && <span className="badge"> read-only</span>}</td>
                </tr>
              );
            }
            if (it.kind === 'repo') return <tr key={it.key} className="group repo-group" data-testid="repo-group"><td colSpan={cols}><span className="muted">{it.repo ? basename(it.repo) : 'no directory'}</span> <span className="muted count">{it.count}</span></td></tr>;
            const s = it.s;
            return <Row key={it.key} s={s} board={board} now={now} selected={s.id === selectedId} cursor={it.key === cursorKey} pages={pagesBySession.get(s.id)} goal={goalsBySession.get(s.id)} onOpen={onOpen} onPagesChanged={onPagesChanged} host={inFleet ? (s.hostId ? (s.host ?? '') : (self ?? '')) : undefined} />;
          })}
          {last < items.length && <tr className="spacer" aria-hidden="true" style={{ height: (items.length - last) * ROW_H }}><td colSpan={cols} /></tr>}
        </tbody>
      </table>
      {sessions.length === 0 && <p className="empty">No sessions yet. Start {harnessLabels()} and they appear here.</p>}
    </section>
  );
}
