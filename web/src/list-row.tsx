/**
 * One session row of the list. Memoised on its props (the session object, its pages and goal are
 * replaced only when they change), so a live update re-renders one row. Its height is fixed (ROW_H)
 * because the table is virtualised: the row index alone tells where a row sits.
 */
import { memo } from 'react';
import { CharacterFace } from './character-face.tsx';
import { CharacterPage } from './character-page.tsx';
import { GoalBadge } from './goal-badge.tsx';
import { ago, basename, cacheState, cost, statusWord, tokens } from './format.ts';
import { HarnessMark } from './harness-mark.tsx';
import { keyOf, type BoardCharacters, type GoalView, type Page, type Session } from './types.ts';

/** Row height in px; must match `.sessions tr.row` in board.css. */
export const ROW_H = 40;

export interface RowProps {
  s: Session;
  board: BoardCharacters | null;
  selected: boolean;
  cursor: boolean;
  now: number;
  pages: Page[] | undefined;
  goal: GoalView | undefined;
  onOpen(s: Session): void;
  onPagesChanged(): void;
  /** In a fleet: the host the session runs on (a column of its own). */
  host?: string;
}

export const Row = memo(function Row({ s, board, selected, cursor, now, pages, goal, onOpen, onPagesChanged, host }: RowProps) {
  const cache = cacheState(s.cacheExpiresAt, now);
  // Another host's session while that host is silent: its last known state, dimmed (never dropped).
  const away = s.hostReachable === false;
  return (
    <tr className={`row st-${s.status}${selected ? ' selected' : ''}${cursor ? ' cursor' : ''}${s.live ? '' : ' dormant'}${away ? ' unreachable' : ''}`} data-key={keyOf(s)} data-status={s.status} data-host={host} onClick={() => onOpen(s)} aria-selected={selected}>
      {host !== undefined && <td className="c-host" title={away ? `${host} has not been heard from for 30 s or more` : host}>{host}{away && ' ⚠'}</td>}
      <td><HarnessMark harness={s.harness} /></td>
      <td className="c-face">
        <CharacterFace board={board} session={s} size={24} />
        {pages && pages.length > 0 && <CharacterPage pages={pages} onChanged={onPagesChanged} />}
      </td>
      <td className="c-title" title={s.title}>
        <span className="title-text">{s.title || <span className="muted">untitled</span>}</span>
        {goal && <GoalBadge goal={goal} />}
      </td>
      <td className="c-repo" title={s.cwd ?? ''}>{basename(s.repoRoot ?? s.cwd)}{s.branch && <span className="branch"> {s.branch}</span>}</td>
      <td className="c-status">
        <span className={`pill st-${statusWord(s)}`}>{statusWord(s)}</span> <span className="muted">{ago(s.statusSince, now)}</span>
        {s.waitingFor && <span className="waiting-for" title={s.waitingFor}> {s.waitingFor}</span>}
      </td>
      <td className="num">{tokens(s)}</td>
      <td className="num">{cost(s.costUsd)}</td>
      <td className="num muted">{ago(s.lastActivityAt, now)}</td>
      <td>
        {s.live ? <span className="live-dot">live</span> : <span className="muted">ended</span>}
        {cache?.warm && <span className="cache-warm" data-testid="cache-warm" title={`prompt cache ${cache.text}`}> ♨ {cache.span}</span>}
      </td>
    </tr>
  );
});
