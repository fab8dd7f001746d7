/**
 * Which rows the operator sees, in which order. Sessions: live ones first, grouped by status —
 * waiting (and stuck) on top, longest wait first, then idle, then working — and then the recently
 * ended. Pages: pending first (oldest first: it has waited longest), then the rest, newest first.
 */
import type { Session } from '../core/session.ts';
import type { Page } from '../pager/index.ts';
import { hostLabel, THIS_HOST, type Filters, type TuiState } from './types.ts';

export type GroupName = 'waiting' | 'idle' | 'working' | 'ended';
export const GROUP_ORDER: readonly GroupName[] = ['waiting', 'idle', 'working', 'ended'];

export interface SessionGroup {
  name: GroupName;
  sessions: Session[];
  /** Ended sessions left out by the recent-only limit. */
  hidden: number;
}

export function groupOf(s: Session): GroupName {
  if (!s.live || s.status === 'ended') return 'ended';
  if (s.status === 'waiting' || s.status === 'stuck') return 'waiting';
  return s.status;
}

function matches(s: Session, f: Filters): boolean {
  if (f.status && s.status !== f.status) return false;
  if (f.harness && s.harness !== f.harness) return false;
  if (f.host && hostLabel(s) !== f.host) return false;
  if (!f.text) return true;
  const q = f.text.toLowerCase();
  return [s.title, s.id, s.repoRoot, s.cwd, s.branch, s.waitingFor, s.model, s.harness].some((v) => v?.toLowerCase().includes(q));
}

const time = (iso: string | null | undefined): number => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : 0;
};

export function sessionGroups(state: Pick<TuiState, 'sessions' | 'filters' | 'endedLimit'>): SessionGroup[] {
  const buckets = new Map<GroupName, Session[]>(GROUP_ORDER.map((g) => [g, []]));
  for (const s of state.sessions.values()) if (matches(s, state.filters)) buckets.get(groupOf(s))!.push(s);
  const byRecent = (a: Session, b: Session) => time(b.lastActivityAt) - time(a.lastActivityAt) || a.id.localeCompare(b.id);
  return GROUP_ORDER.map((name) => {
    const list = buckets.get(name)!;
    if (name === 'waiting') list.sort((a, b) => time(a.statusSince) - time(b.statusSince) || a.id.localeCompare(b.id));
    else list.sort(byRecent);
    if (name !== 'ended' || state.filters.allEnded || list.length <= state.endedLimit) return { name, sessions: list, hidden: 0 };
    return { name, sessions: list.slice(0, state.endedLimit), hidden: list.length - state.endedLimit };
  }).filter((g) => g.sessions.length > 0 || g.hidden > 0);
}

/** The selectable sessions in display order. */
export function sessionRows(state: Pick<TuiState, 'sessions' | 'filters' | 'endedLimit'>): Session[] {
  return sessionGroups(state).flatMap((g) => g.sessions);
}

export function pageRows(state: Pick<TuiState, 'pages' | 'filters'>): Page[] {
  const q = state.filters.text.toLowerCase();
  const host = state.filters.host;
  const list = [...state.pages.values()].filter((p) => (!host || hostLabel(p) === host) && (!q || [p.question, p.context, p.id, p.sessionId].some((v) => v?.toLowerCase().includes(q))));
  const pending = list.filter((p) => p.status === 'pending').sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const rest = list.filter((p) => p.status !== 'pending').sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return [...pending, ...rest];
}

/** Ids of the current view's rows, in order. */
export function rowIds(state: TuiState): string[] {
  return state.view === 'sessions' ? sessionRows(state).map((s) => s.id) : pageRows(state).map((p) => p.id);
}

/** The selected id after the rows changed: the same id if still there, else the row now at its old index. */
export function resolveSelection(state: TuiState, ids: string[]): { id: string | null; index: number } {
  const want = state.selected[state.view];
  const at = want === null ? -1 : ids.indexOf(want);
  if (at >= 0) return { id: want, index: at };
  if (ids.length === 0) return { id: null, index: 0 };
  const index = Math.min(state.selectedIndex[state.view], ids.length - 1);
  return { id: ids[index]!, index };
}

export function selectedSession(state: TuiState): Session | undefined {
  const { id } = resolveSelection({ ...state, view: 'sessions' }, sessionRows(state).map((s) => s.id));
  return id ? state.sessions.get(id) : undefined;
}

export function selectedPage(state: TuiState): Page | undefined {
  const { id } = resolveSelection({ ...state, view: 'pages' }, pageRows(state).map((p) => p.id));
  return id ? state.pages.get(id) : undefined;
}

/** The hosts the operator can filter on: this host, then every other host seen, by name (empty outside a fleet). */
export function hostChoices(state: Pick<TuiState, 'sessions' | 'pages'>): string[] {
  const others = new Set<string>();
  for (const r of [...state.sessions.values(), ...state.pages.values()]) if (r.hostId && r.host) others.add(r.host);
  return others.size === 0 ? [] : [THIS_HOST, ...[...others].sort()];
}
