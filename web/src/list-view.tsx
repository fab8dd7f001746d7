/**
 * The default view: a dense, sortable table of every session — waiting first — with filters,
 * search and keyboard navigation (↑/↓ or j/k to move, Enter to open, / to search). Rows are
 * memoised on the session object, so an SSE change re-renders one row, not 1,000.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { CharacterFace } from './character-face.tsx';
import { HARNESS_MARK, STATUS_RANK, ago, basename, cost, tokens, totalTokens } from './format.ts';
import { keyOf, type BoardCharacters, type Session } from './types.ts';

type SortKey = 'status' | 'title' | 'harness' | 'repo' | 'tokens' | 'cost' | 'activity';
export interface Filters { harness: string; status: string; repo: string; live: string; q: string }
export const NO_FILTERS: Filters = { harness: '', status: '', repo: '', live: '', q: '' };

const byStatus = (a: Session, b: Session) =>
  Number(b.live) - Number(a.live) || (STATUS_RANK[a.status] ?? 9) - (STATUS_RANK[b.status] ?? 9) || (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? '');
const SORTS: Record<SortKey, (a: Session, b: Session) => number> = {
  status: byStatus,
  title: (a, b) => a.title.localeCompare(b.title),
  harness: (a, b) => a.harness.localeCompare(b.harness) || byStatus(a, b),
  repo: (a, b) => (a.repoRoot ?? a.cwd ?? '').localeCompare(b.repoRoot ?? b.cwd ?? '') || byStatus(a, b),
  tokens: (a, b) => totalTokens(b) - totalTokens(a),
  cost: (a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1),
  activity: (a, b) => (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? ''),
};

export function filterSessions(all: Session[], f: Filters): Session[] {
  const q = f.q.trim().toLowerCase();
  return all.filter(
    (s) =>
      (!f.harness || s.harness === f.harness) &&
      (!f.status || s.status === f.status) &&
      (!f.repo || (s.repoRoot ?? s.cwd) === f.repo) &&
      (!f.live || String(s.live) === f.live) &&
      (!q || [s.title, s.id, s.repoRoot, s.cwd, s.branch, s.waitingFor, s.model].some((v) => v?.toLowerCase().includes(q))),
  );
}

const Row = memo(function Row({ s, board, selected, cursor, now, pages, onOpen }: { s: Session; board: BoardCharacters | null; selected: boolean; cursor: boolean; now: number; pages: number; onOpen(s: Session): void }) {
  return (
    <tr className={`row st-${s.status}${selected ? ' selected' : ''}${cursor ? ' cursor' : ''}${s.live ? '' : ' dormant'}`} data-key={keyOf(s)} data-status={s.status} onClick={() => onOpen(s)} aria-selected={selected}>
      <td><span className={`mark h-${s.harness}`}>{HARNESS_MARK[s.harness] ?? s.harness}</span></td>
      <td className="c-face"><CharacterFace board={board} session={s} size={22} />{pages > 0 && <span className="page-dot" title={`${pages} page(s)`}>{pages}</span>}</td>
      <td className="c-title" title={s.title}>{s.title || <span className="muted">untitled</span>}</td>
      <td className="c-repo" title={s.cwd ?? ''}>{basename(s.repoRoot ?? s.cwd)}{s.branch && <span className="branch"> {s.branch}</span>}</td>
      <td className="c-status">
        <span className={`pill st-${s.status}`}>{s.status}</span> <span className="muted">{ago(s.statusSince, now)}</span>
        {s.waitingFor && <div className="waiting-for" title={s.waitingFor}>{s.waitingFor}</div>}
      </td>
      <td className="num">{tokens(s)}</td>
      <td className="num">{cost(s.costUsd)}</td>
      <td className="num muted">{ago(s.lastActivityAt, now)}</td>
      <td>{s.live ? <span className="live-dot">live</span> : <span className="muted">ended</span>}</td>
    </tr>
  );
});

export interface ListViewProps {
  sessions: Session[];
  board: BoardCharacters | null;
  now: number;
  selectedKey: string | null;
  pageCounts: Map<string, number>;
  onOpen(s: Session): void;
}

export function ListView({ sessions, board, now, selectedKey, pageCounts, onOpen }: ListViewProps) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'status', dir: 1 });
  const [cursor, setCursor] = useState(0);
  const search = useRef<HTMLInputElement>(null);
  const repos = useMemo(() => [...new Set(sessions.map((s) => s.repoRoot ?? s.cwd).filter((r): r is string => !!r))].sort(), [sessions]);
  const rows = useMemo(() => {
    const list = filterSessions(sessions, filters).sort(SORTS[sort.key]);
    return sort.dir === 1 ? list : list.reverse();
  }, [sessions, filters, sort]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
      if (e.key === '/' && !typing) {
        e.preventDefault();
        search.current?.focus();
        return;
      }
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
    document.querySelector('tr.row.cursor')?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);

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

  return (
    <section className="list-view" data-testid="list-view">
      <div className="filters">
        <input ref={search} type="search" placeholder="Search title, repo, branch, id…  ( / )" value={filters.q} onChange={set('q')} aria-label="search" data-testid="search" />
        <select value={filters.harness} onChange={set('harness')} aria-label="harness">
          <option value="">all harnesses</option>
          {Object.keys(HARNESS_MARK).map((h) => <option key={h} value={h}>{h}</option>)}
        </select>
        <select value={filters.status} onChange={set('status')} aria-label="status">
          <option value="">any status</option>
          {Object.keys(STATUS_RANK).map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <select value={filters.repo} onChange={set('repo')} aria-label="repo">
          <option value="">all repos</option>
          {repos.map((r) => <option key={r} value={r}>{basename(r)}</option>)}
        </select>
        <select value={filters.live} onChange={set('live')} aria-label="live">
          <option value="">live and ended</option>
          <option value="true">live only</option>
          <option value="false">ended only</option>
        </select>
        <span className="muted count" data-testid="row-count">{rows.length} of {sessions.length}</span>
      </div>
      <table className="sessions">
        <thead>
          <tr>
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
        <tbody className={cursorKey ? '' : 'no-cursor'}>
          {rows.map((s) => {
            const k = keyOf(s);
            return <Row key={k} s={s} board={board} now={now} selected={k === selectedKey} cursor={k === cursorKey} pages={pageCounts.get(s.id) ?? 0} onOpen={onOpen} />;
          })}
        </tbody>
      </table>
      {sessions.length === 0 && <p className="empty">No sessions yet. Start Claude Code, Codex, OpenCode, pi or omp and they appear here.</p>}
    </section>
  );
}
