/**
 * The list's row order: filter + sort, kept between renders so a live change of one session (an SSE
 * status change, a token count) patches that row in place instead of re-sorting 1,000 — unless the
 * change moved it out of order or in/out of the filter, which is when a full pass is needed.
 */
import { STATUS_RANK, totalTokens } from './format.ts';
import { keyOf, type Session } from './types.ts';

export type SortKey = 'status' | 'title' | 'harness' | 'repo' | 'tokens' | 'cost' | 'activity';
export interface Sort { key: SortKey; dir: 1 | -1 }
export interface Filters { harness: string; status: string; repo: string; live: string; q: string; host: string }
export const NO_FILTERS: Filters = { harness: '', status: '', repo: '', live: '', q: '', host: '' };

/** In a fleet, the host a session runs on: another host's name, or this host's for its own (events carry no host for them). */
export const hostOf = (s: Session, self: string | null): string => (s.hostId ? (s.host ?? '') : (self ?? ''));

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

/** The host filter's value for this host's own sessions (another host's are named by their host). */
export const SELF = '\u0000self';

export function matches(s: Session, f: Filters): boolean {
  const q = f.q.trim().toLowerCase();
  return (
    (!f.harness || s.harness === f.harness) &&
    (!f.status || s.status === f.status) &&
    (!f.repo || (s.repoRoot ?? s.cwd) === f.repo) &&
    (!f.live || String(s.live) === f.live) &&
    (!f.host || (s.hostId ? s.host : SELF) === f.host) &&
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

/** A line of the list in a fleet: a host's header, a repo's header under it, or a session row. */
export type ListItem =
  | { kind: 'host'; key: string; host: string; self: boolean; count: number; reachable: boolean; readOnly: boolean }
  | { kind: 'repo'; key: string; repo: string; count: number }
  | { kind: 'row'; key: string; s: Session; row: number };

const repoOf = (s: Session): string => s.repoRoot ?? s.cwd ?? '';

/**
 * The rows grouped by host (this host first, then by name), then by repo (by path, "no directory"
 * last); inside a group the rows keep their order. `row` is the index into `rows` (the cursor's).
 */
export function groupByHost(rows: readonly Session[], self: string | null, hostState: ReadonlyMap<string, { reachable: boolean; acceptCommands: boolean }>): ListItem[] {
  const byHost = new Map<string, Map<string, number[]>>();
  rows.forEach((s, i) => {
    const h = hostOf(s, self);
    const repos = byHost.get(h) ?? new Map<string, number[]>();
    byHost.set(h, repos);
    const r = repoOf(s);
    repos.set(r, [...(repos.get(r) ?? []), i]);
  });
  const hosts = [...byHost.keys()].sort((a, b) => (a === self ? -1 : b === self ? 1 : a.localeCompare(b)));
  const out: ListItem[] = [];
  for (const h of hosts) {
    const repos = byHost.get(h) as Map<string, number[]>;
    const state = hostState.get(h);
    const count = [...repos.values()].reduce((n, r) => n + r.length, 0);
    out.push({ kind: 'host', key: `host:${h}`, host: h, self: h === self, count, reachable: h === self || state?.reachable !== false, readOnly: h !== self && state?.acceptCommands === false });
    const names = [...repos.keys()].sort((a, b) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)));
    for (const r of names) {
      const idx = repos.get(r) as number[];
      out.push({ kind: 'repo', key: `repo:${h}:${r}`, repo: r, count: idx.length });
      for (const i of idx) {
        const s = rows[i] as Session;
        out.push({ kind: 'row', key: keyOf(s), s, row: i });
      }
    }
  }
  return out;
}
