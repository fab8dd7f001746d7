/**
 * Characters as real DOM controls over the whiteboard, positioned in scene coordinates (so they
 * pan and zoom with the drawing). Click opens the panel; drag moves the character and saves its
 * place. Status shows on the character: working animates, waiting stands out, ended fades.
 */
import { memo, useRef } from 'react';
import { CharacterFace } from '../character-face.tsx';
import { CharacterPage } from '../character-page.tsx';
import { GoalBadge } from '../goal-badge.tsx';
import { basename } from '../format.ts';
import { keyOf, type BoardCharacters, type GoalView, type Page, type Position, type Session } from '../types.ts';

export interface Viewport { scrollX: number; scrollY: number; zoom: number }

interface Props {
  sessions: Session[];
  positions: Map<string, Position>;
  groups: { name: string; at: Position }[];
  viewport: Viewport;
  board: BoardCharacters | null;
  pagesBySession: Map<string, Page[]>;
  goalsBySession: Map<string, GoalView>;
  onOpen(s: Session): void;
  onMove(key: string, p: Position, done: boolean): void;
  onPagesChanged(): void;
}

const toScreen = (p: Position, v: Viewport) => ({ left: (p.x + v.scrollX) * v.zoom, top: (p.y + v.scrollY) * v.zoom });

interface CharacterProps {
  s: Session;
  at: { left: number; top: number };
  board: BoardCharacters | null;
  pages: Page[] | undefined;
  goal: GoalView | undefined;
  zoom: number;
  onDown(e: React.PointerEvent, s: Session): void;
  onPagesChanged(): void;
}

const Character = memo(function Character({ s, at, board, pages, goal, zoom, onDown, onPagesChanged }: CharacterProps) {
  const size = Math.round(Math.min(88, Math.max(28, 52 * zoom)));
  return (
    <div
      className={`char st-${s.status}${s.live ? '' : ' dormant'}`}
      style={{ transform: `translate(${at.left}px, ${at.top}px)` }}
      data-testid="character"
      data-key={keyOf(s)}
      data-status={s.status}
      role="button"
      tabIndex={0}
      aria-label={`${s.title || 'untitled'} — ${s.status}`}
      onPointerDown={(e) => onDown(e, s)}
    >
      <div className="char-face"><CharacterFace board={board} session={s} size={size} /></div>
      {/* A page is the louder bubble: it can be answered right here. */}
      {pages && pages.length > 0 ? (
        <div className="char-page"><CharacterPage pages={pages} onChanged={onPagesChanged} showQuestion /></div>
      ) : (
        s.status === 'waiting' && <div className="bubble" title={s.waitingFor ?? ''}>{s.waitingFor ?? 'needs you'}</div>
      )}
      <div className="char-name">{s.title || basename(s.cwd)}</div>
      {goal && <div className="char-goal"><GoalBadge goal={goal} wide /></div>}
    </div>
  );
});

export function CharacterLayer({ sessions, positions, groups, viewport, board, pagesBySession, goalsBySession, onOpen, onMove, onPagesChanged }: Props) {
  const drag = useRef<{ key: string; x0: number; y0: number; from: Position; moved: boolean } | null>(null);
  const onDown = (e: React.PointerEvent, s: Session) => {
    if (e.button !== 0) return;
    const key = keyOf(s);
    const from = positions.get(key);
    if (!from) return;
    e.preventDefault();
    e.stopPropagation();
    const el = e.currentTarget as HTMLElement;
    el.setPointerCapture(e.pointerId);
    drag.current = { key, x0: e.clientX, y0: e.clientY, from, moved: false };
    const at = (ev: PointerEvent): Position => ({ x: from.x + (ev.clientX - e.clientX) / viewport.zoom, y: from.y + (ev.clientY - e.clientY) / viewport.zoom });
    const move = (ev: PointerEvent) => {
      const d = drag.current;
      if (!d) return;
      if (Math.abs(ev.clientX - d.x0) + Math.abs(ev.clientY - d.y0) > 4) d.moved = true;
      if (d.moved) onMove(key, at(ev), false);
    };
    const up = (ev: PointerEvent) => {
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      const d = drag.current;
      drag.current = null;
      if (d?.moved) onMove(key, at(ev), true);
      else onOpen(s);
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
  };
  return (
    <div className="char-layer" data-testid="character-layer">
      {groups.map((g) => {
        const at = toScreen(g.at, viewport);
        return <div key={g.name} className="group-label" style={{ transform: `translate(${at.left}px, ${at.top}px)` }} title={g.name}>{basename(g.name)}</div>;
      })}
      {sessions.map((s) => {
        const p = positions.get(keyOf(s));
        return p ? <Character key={keyOf(s)} s={s} at={toScreen(p, viewport)} board={board} pages={pagesBySession.get(s.id)} goal={goalsBySession.get(s.id)} zoom={viewport.zoom} onDown={onDown} onPagesChanged={onPagesChanged} /> : null;
      })}
    </div>
  );
}
