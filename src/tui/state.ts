/**
 * How the daemon's facts enter the state: a snapshot (GET /api/sessions, /pages, /goals) and then
 * SSE events. Every event carries the full record or the changed fields, so applying an event twice,
 * or applying one the snapshot already reflects, converges to the same state — which is what lets the
 * app subscribe first and fetch the snapshot second without a gap.
 */
import type { Session, SessionStatus } from '../core/session.ts';
import type { Page } from '../pager/index.ts';
import type { Goal } from '../goals/index.ts';
import type { Connection, Snapshot, TuiState } from './types.ts';

export interface IncomingEvent {
  type: string;
  data: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function applySnapshot(state: TuiState, snap: Snapshot): TuiState {
  // The snapshot is authoritative (GET /api/sessions decorates panes): replace, do not merge.
  const sessions = new Map<string, Session>();
  for (const s of snap.sessions) sessions.set(s.id, s);
  const pages = new Map<string, Page>();
  for (const p of snap.pages) pages.set(p.id, p);
  const goals = new Map<string, Goal>();
  for (const g of snap.goals) goals.set(g.sessionId, g);
  return { ...state, sessions, pages, goals };
}

function upsertSession(state: TuiState, s: Session): TuiState {
  const sessions = new Map(state.sessions);
  const prev = sessions.get(s.id);
  // Bus events carry the hub's session without the pane (the HTTP route decorates it from the pane
  // map); keep the pane we already know while the same process lives rather than blanking it.
  const pane = s.pane ?? (prev && prev.live && s.live && prev.pid === s.pid ? prev.pane : null);
  sessions.set(s.id, { ...s, pane });
  return { ...state, sessions };
}

function patchStatus(state: TuiState, d: Record<string, unknown>): TuiState {
  const id = typeof d.id === 'string' ? d.id : null;
  const prev = id ? state.sessions.get(id) : undefined;
  if (!id || !prev) return state;
  const sessions = new Map(state.sessions);
  sessions.set(id, {
    ...prev,
    status: (typeof d.status === 'string' ? d.status : prev.status) as SessionStatus,
    waitingFor: typeof d.waitingFor === 'string' ? d.waitingFor : null,
    live: typeof d.live === 'boolean' ? d.live : prev.live,
    statusSince: typeof d.statusSince === 'string' ? d.statusSince : prev.statusSince,
  });
  return { ...state, sessions };
}

function upsertGoal(state: TuiState, g: Record<string, unknown>): TuiState {
  if (typeof g.sessionId !== 'string' || typeof g.id !== 'string') return state;
  const goals = new Map(state.goals);
  const current = goals.get(g.sessionId);
  if (g.cleared === true) {
    if (current?.id === g.id) goals.delete(g.sessionId);
  } else goals.set(g.sessionId, g as unknown as Goal);
  return { ...state, goals };
}

/** Applies one SSE event; unknown types leave the state as it was. */
export function applyEvent(state: TuiState, e: IncomingEvent): TuiState {
  const d = e.data;
  if (!isObject(d)) return state;
  switch (e.type) {
    case 'session.upserted':
      return isObject(d.session) && typeof d.session.id === 'string' ? upsertSession(state, d.session as unknown as Session) : state;
    case 'session.removed': {
      if (typeof d.id !== 'string' || !state.sessions.has(d.id)) return state;
      const sessions = new Map(state.sessions);
      sessions.delete(d.id);
      return { ...state, sessions };
    }
    case 'session.status.changed':
      return patchStatus(state, d);
    case 'goal.updated':
    case 'goal.settled':
      return upsertGoal(state, d);
    case 'goal.evaluating': {
      if (typeof d.sessionId !== 'string') return state;
      const evaluating = new Set(state.evaluating);
      if (d.evaluating === true) evaluating.add(d.sessionId);
      else evaluating.delete(d.sessionId);
      return { ...state, evaluating };
    }
    default:
      if (e.type.startsWith('page.') && typeof d.id === 'string' && typeof d.question === 'string') {
        const pages = new Map(state.pages);
        pages.set(d.id, d as unknown as Page);
        return { ...state, pages };
      }
      return state;
  }
}

export function setConnection(state: TuiState, connection: Connection): TuiState {
  return state.connection === connection ? state : { ...state, connection };
}

export function flash(state: TuiState, text: string, level: 'info' | 'error', now: number): TuiState {
  return { ...state, flash: { text, level, at: now } };
}
