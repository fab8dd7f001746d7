/**
 * The list's row order: filter + sort, kept between renders so a live change of one session (an SSE
 * status change, a token count) patches that row in place instead of re-sorting 1,000 — unless the
 * change moved it out of order or in/out of the filter, which is when a full pass is needed.
 */
import { STATUS_RANK, totalTokens } from './format.ts';
import { keyOf, type Session } from './types.ts';

export type SortKey = 'status' | 'title' | 'harness' | 'repo' | 'tokens' | 'cost' | 'activity';
export interface Sort { key: SortKey; dir: 1 | -1 }
export interface Filters { harness: string; status: string; repo: string; live: string; q: string }
export const NO_FILTERS: Filters = { harness: '', status: '', repo: '', live: '', q: '' };

const byStatus = (a: Session, b: Session) =>
  Number(b.live) - Number(a.live) || (STATUS_RANK[a.status] ?? 9) - (STATUS_RANK[b.status] ?? 9) || (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? '');
export const SORTS: Record<SortKey, (a: Session, b: Session) => number> = {
  status: byStatus,
  title: (a, b) => a.title.localeCompare(b.title),
  harness: (a, b) => a.harness.localeCompare(b.harness) || byStatus(a, b),
  repo: (a, b) => (a.repoRoot ?? a.cwd ?? '').localeCompare(b.repoRoot ?? b.cwd ?? '') || byStatus(a, b),
  tokens: (a, b) => totalTokens(b) - totalTokens(a),
  cost: (a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1),
  activity: (a, b) => (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? ''),
};

export function matches(s: Session, f: Filters): boolean {
  const q = f.q.trim().toLowerCase();
  return (
    (!f.harness || s.harness === f.harness) &&
    (!f.status || s.status === f.status) &&
    (!f.repo || (s.repoRoot ?? s.cwd) === f.repo) &&
    (!f.live || String(s.live) === f.live) &&
    (!q || [s.title, s.id, s.repoRoot, s.cwd, s.branch, s.waitingFor, s.model].some((v) => v?.toLowerCase().includes(q)))
  );
}

export const filterSessions = (all: Session[], f: Filters): Session[] => all.filter((s) => matches(s, f));

export interface Ordered {
  rows: Session[];
  /** Row index by session key. */
  index: Map<string, number>;
  /** The inputs this order was computed from (identity compared on the next update). */
  source: Session[];
  filters: Filters;
  sort: Sort;
  /** True when the last update re-sorted everything (for tests and the benchmark's curiosity). */
  full: boolean;
}

/** Above this many changed sessions in one update, a full pass is as cheap as patching. */
const PATCH_LIMIT = 32;

function fullOrder(sessions: Session[], filters: Filters, sort: Sort): Ordered {
  const cmp = SORTS[sort.key];
  const rows = filterSessions(sessions, filters).sort(sort.dir === 1 ? cmp : (a, b) => cmp(b, a));
  return { rows, index: new Map(rows.map((s, i) => [keyOf(s), i])), source: sessions, filters, sort, full: true };
}

/**
 * The order for `sessions`. With the previous order for the same filters and sort and the same
 * sessions in the same places, only changed sessions are looked at: one that still passes the
 * filter as before and still sits between its neighbours is replaced in place.
 */
export function orderRows(prev: Ordered | null, sessions: Session[], filters: Filters, sort: Sort): Ordered {
  if (!prev || prev.filters !== filters || prev.sort !== sort || prev.source.length !== sessions.length) return fullOrder(sessions, filters, sort);
  if (prev.source === sessions) return prev;
  const cmp = SORTS[sort.key];
  const ordered = (a: Session, b: Session) => (sort.dir === 1 ? cmp(a, b) : cmp(b, a)) <= 0;
  let rows: Session[] | null = null;
  let changed = 0;
  for (let i = 0; i < sessions.length; i++) {
    const now = sessions[i] as Session;
    const was = prev.source[i] as Session;
    if (now === was) continue;
    if (++changed > PATCH_LIMIT || keyOf(now) !== keyOf(was)) return fullOrder(sessions, filters, sort);
    const inNow = matches(now, filters);
    if (inNow !== matches(was, filters)) return fullOrder(sessions, filters, sort);
    if (!inNow) continue;
    const at = prev.index.get(keyOf(now));
    if (at === undefined) return fullOrder(sessions, filters, sort);
    rows ??= prev.rows.slice();
    const before = rows[at - 1];
    const after = rows[at + 1];
    if ((before && !ordered(before, now)) || (after && !ordered(now, after))) return fullOrder(sessions, filters, sort);
    rows[at] = now;
  }
  return { rows: rows ?? prev.rows, index: prev.index, source: sessions, filters, sort, full: false };
}
