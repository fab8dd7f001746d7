/**
 * The one reducer of the SSE stream, shared by the board (web/src/use-board.ts) and the TUI
 * (src/tui/state.ts): a snapshot (GET /api/sessions, /pages, /goals) and then events, applied to
 * sessions, pages and goals. Every event carries the full record or the changed fields, so applying
 * an event twice, or one the snapshot already reflects, converges to the same state — which is what
 * lets a client subscribe first and fetch the snapshot second without a gap.
 *
 * Pure and browser-safe (the board bundles it): no OS imports; the only clock is goal.audited's
 * default time. Data off the wire is not trusted: an event whose data lacks what it needs, or whose
 * name is unknown, leaves the state as it was (the same object). A change copies only the map it
 * touches.
 */
import { STATUSES, type Session, type SessionStatus } from '../core/session.ts';
import type { Page } from '../pager/index.ts';
import type { Goal } from '../goals/index.ts';
import type { EventType, PageEventType, StreamCatalogue } from './catalogue.ts';

export interface StreamState {
  /**
   * Sessions by id. The API addresses a session by its id alone (ids are UUIDs or `ses_…`, distinct
   * across harnesses), and goals and pages name their session by id.
   */
  sessions: ReadonlyMap<string, Session>;
  /** Pages by id. */
  pages: ReadonlyMap<string, Page>;
  /** Each session's goal (one per session), by session id. */
  goals: ReadonlyMap<string, Goal>;
  /** Session ids whose goal the auditor is judging now. */
  evaluating: ReadonlySet<string>;
}

export interface StreamSnapshot {
  sessions: readonly Session[];
  pages: readonly Page[];
  goals: readonly Goal[];
}

/** An event off the wire: its name and its parsed JSON data, not yet trusted. */
export interface StreamEvent {
  type: string;
  data: unknown;
  /** ISO time the client received it; stamps goal.audited's `lastAudit.at` (the payload has none). Default: now. */
  at?: string;
}

type Data<K extends keyof StreamCatalogue> = StreamCatalogue[K];

export function emptyStreamState(): StreamState {
  return { sessions: new Map(), pages: new Map(), goals: new Map(), evaluating: new Set() };
}

/** The sessions snapshot is authoritative (GET /api/sessions decorates panes): it replaces, never merges. */
export function withSessions<S extends StreamState>(state: S, list: readonly Session[]): S {
  return { ...state, sessions: new Map(list.map((s) => [s.id, s])) };
}

export function withPages<S extends StreamState>(state: S, list: readonly Page[]): S {
  return { ...state, pages: new Map(list.map((p) => [p.id, p])) };
}

/** Each session's newest goal (goal ids are time-sortable), whatever order the list comes in. */
export function withGoals<S extends StreamState>(state: S, list: readonly Goal[]): S {
  const goals = new Map<string, Goal>();
  for (const g of list) {
    const seen = goals.get(g.sessionId);
    if (!seen || seen.id < g.id) goals.set(g.sessionId, g);
  }
  return { ...state, goals };
}

export function applySnapshot<S extends StreamState>(state: S, snap: StreamSnapshot): S {
  return withGoals(withPages(withSessions(state, snap.sessions), snap.pages), snap.goals);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isId = (v: unknown): v is string => typeof v === 'string' && v !== '';
const isStatus = (v: unknown): v is SessionStatus => (STATUSES as readonly unknown[]).includes(v);

// What each handler relies on, checked before it runs; the rest of a payload is taken as the catalogue says.
const isUpsert = (d: unknown): d is Data<'session.upserted'> => isObject(d) && isObject(d.session) && isId(d.session.id);
const isGoal = (d: unknown): d is Data<'goal.updated'> => isObject(d) && isId(d.id) && isId(d.sessionId);
const isPage = (d: unknown): d is Page => isObject(d) && isId(d.id) && typeof d.question === 'string';
const isEvaluating = (d: unknown): d is Data<'goal.evaluating'> => isObject(d) && isId(d.sessionId);
const isAudit = (d: unknown): d is Data<'goal.audited'> => isObject(d) && isId(d.goalId) && isId(d.sessionId);

function upsertSession<S extends StreamState>(state: S, s: Session): S {
  const prev = state.sessions.get(s.id);
  // Bus events carry the hub's session without the pane (the HTTP route decorates it from the pane
  // map); keep the pane already known while the same process lives rather than blanking it.
  const pane = s.pane ?? (prev && prev.live && s.live && prev.pid === s.pid ? prev.pane : null);
  return { ...state, sessions: new Map(state.sessions).set(s.id, { ...s, pane }) };
}

function removeSession<S extends StreamState>(state: S, d: Record<string, unknown>): S {
  if (!isId(d.id) || !state.sessions.has(d.id)) return state;
  const sessions = new Map(state.sessions);
  sessions.delete(d.id);
  return { ...state, sessions };
}

function patchStatus<S extends StreamState>(state: S, d: Record<string, unknown>): S {
  const prev = isId(d.id) ? state.sessions.get(d.id) : undefined;
  if (!prev) return state;
  const next: Session = {
    ...prev,
    status: isStatus(d.status) ? d.status : prev.status,
    waitingFor: typeof d.waitingFor === 'string' ? d.waitingFor : null,
    live: typeof d.live === 'boolean' ? d.live : prev.live,
    statusSince: typeof d.statusSince === 'string' ? d.statusSince : prev.statusSince,
  };
  if (next.status === prev.status && next.waitingFor === prev.waitingFor && next.live === prev.live && next.statusSince === prev.statusSince) return state;
  return { ...state, sessions: new Map(state.sessions).set(prev.id, next) };
}

function upsertGoal<S extends StreamState>(state: S, g: Data<'goal.updated'>): S {
  const goals = new Map(state.goals);
  if (g.cleared === true) {
    // A clear removes only the goal it names: a stale clear must not remove the session's newer goal.
    if (goals.get(g.sessionId)?.id !== g.id) return state;
    goals.delete(g.sessionId);
  } else goals.set(g.sessionId, g);
  return { ...state, goals };
}

function setEvaluating<S extends StreamState>(state: S, d: Data<'goal.evaluating'>): S {
  const on = d.evaluating === true;
  if (state.evaluating.has(d.sessionId) === on) return state;
  const evaluating = new Set(state.evaluating);
  if (on) evaluating.add(d.sessionId);
  else evaluating.delete(d.sessionId);
  return { ...state, evaluating };
}

/** goal.audited shows the verdict at once; the goal.updated that follows carries the daemon's own record of it. */
function recordAudit<S extends StreamState>(state: S, a: Data<'goal.audited'>, at: string): S {
  const g = state.goals.get(a.sessionId);
  if (!g || g.id !== a.goalId) return state;
  const lastAudit = { at, verdict: a.verdict ?? null, error: a.error ?? null, auditor: a.auditor ?? '' };
  return { ...state, goals: new Map(state.goals).set(a.sessionId, { ...g, lastAudit }) };
}

const PAGE_EVENTS: readonly PageEventType[] = ['page.opened', 'page.delivered', 'page.answered', 'page.cancelled', 'page.dismissed', 'page.expired'];
const isPageEvent = (type: string): boolean => (PAGE_EVENTS as readonly string[]).includes(type);

/** The events that change this state; a client that must subscribe by name (EventSource) listens to these. */
export const STATE_EVENTS: readonly EventType[] = [
  'session.upserted', 'session.removed', 'session.status.changed', 'goal.updated', 'goal.settled', 'goal.evaluating', 'goal.audited', ...PAGE_EVENTS,
];

/** Applies one event off the wire; unknown names and malformed data leave the state as it was. */
export function applyEvent<S extends StreamState>(state: S, e: StreamEvent): S {
  const d = e.data;
  if (!isObject(d)) return state;
  switch (e.type) {
    case 'session.upserted':
      return isUpsert(d) ? upsertSession(state, d.session) : state;
    case 'session.removed':
      return removeSession(state, d);
    case 'session.status.changed':
      return patchStatus(state, d);
    case 'goal.updated':
    case 'goal.settled':
      return isGoal(d) ? upsertGoal(state, d) : state;
    case 'goal.evaluating':
      return isEvaluating(d) ? setEvaluating(state, d) : state;
    case 'goal.audited':
      return isAudit(d) ? recordAudit(state, d, e.at ?? new Date().toISOString()) : state;
    default:
      if (isPageEvent(e.type) && isPage(d)) return { ...state, pages: new Map(state.pages).set(d.id, d) };
      return state;
  }
}

/** True when a `daemon.hello` says the replay the client asked for was impossible: it must refetch everything. */
export function isResync(e: StreamEvent): boolean {
  return e.type === 'daemon.hello' && isObject(e.data) && e.data.resync === true;
}
