/**
 * Search over the index: parses the query, asks the repository for the best hits, keeps those of
 * sessions that pass `repo:`/`branch:` (known from discovery, not from the index), and groups them by
 * session, best session first. Also pages a session's conversation through its source.
 */
import { MusterError } from '../errors/index.ts';
import type { Harness } from '../core/session.ts';
import type { MessagePage } from '../core/transcript-message.ts';
import { parseSearchQuery } from './query-parser.ts';
import { markSnippet } from './snippet.ts';
import type { CompiledQuery, SearchRepository, SearchResult, SearchRow, SearchSessionRef } from './types.ts';

export interface SearchRequest {
  q: string;
  /** Also limits to this harness (the CLI's --harness), on top of any `harness:` in the query. */
  harness?: Harness;
  /** Sessions returned. Default: 20. */
  limit?: number;
}

export interface SearchServiceOptions {
  repo: SearchRepository;
  /** What discovery knows of a session; undefined when it does not list it (yet). */
  session(harness: Harness, id: string): SearchSessionRef | undefined;
  /** A session's conversation from its source; null when the source cannot read it. */
  messages?(harness: Harness, id: string, from: number, limit: number): Promise<MessagePage | null | 'unsupported'>;
  /** Hits kept per session. Default: 5. */
  hitsPerSession?: number;
  clock?: () => number;
}

export interface SearchService {
  /** Throws MusterError('invalid_query') with what to fix when the query cannot be read. */
  search(req: SearchRequest): Promise<{ results: SearchResult[] }>;
  messages(harness: Harness, id: string, from: number, limit: number): Promise<MessagePage | null | 'unsupported'>;
}

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 200;

const lower = (s: string | null): string => (s ?? '').toLowerCase();

function passes(q: CompiledQuery, s: SearchSessionRef | undefined): boolean {
  if (q.repos.length > 0) {
    const where = lower(s?.repoRoot ?? s?.cwd ?? null);
    if (!q.repos.some((r) => where !== '' && where.includes(r.toLowerCase()))) return false;
  }
  if (q.branches.length > 0 && !q.branches.some((b) => lower(s?.branch ?? null) === b.toLowerCase())) return false;
  return true;
}

export function createSearchService(opts: SearchServiceOptions): SearchService {
  const perSession = opts.hitsPerSession ?? 5;
  const clock = opts.clock ?? Date.now;
  return {
    async search(req) {
      const parsed = parseSearchQuery(req.q, clock());
      if (!parsed.ok) throw new MusterError('invalid_query', `cannot read the query: ${parsed.message}`);
      const q = parsed.query;
      if (req.harness && !q.harnesses.includes(req.harness)) q.harnesses = q.harnesses.length > 0 ? q.harnesses.filter((h) => h === req.harness) : [req.harness];
      if (req.harness && q.harnesses.length === 0) return { results: [] }; // --harness and harness: disagree
      const limit = Math.min(Math.max(1, req.limit ?? SEARCH_LIMIT_DEFAULT), SEARCH_LIMIT_MAX);
      // Enough rows that `limit` sessions are usually filled even when a few sessions hold most hits.
      const rows = await opts.repo.query(q, Math.max(200, limit * perSession * 4));
      return { results: group(rows, q, limit) };
    },
    async messages(harness, id, from, limit) {
      return opts.messages ? opts.messages(harness, id, from, limit) : 'unsupported';
    },
  };

  function group(rows: SearchRow[], q: CompiledQuery, limit: number): SearchResult[] {
    const out = new Map<string, SearchResult>();
    for (const r of rows) {
      const key = `${r.harness}\u0000${r.sessionId}`;
      let res = out.get(key);
      if (!res) {
        if (out.size >= limit) continue;
        const known = opts.session(r.harness, r.sessionId);
        if (!passes(q, known)) continue;
        res = {
          session: known ?? { harness: r.harness, id: r.sessionId, title: null, cwd: null, repoRoot: null, branch: null, live: false },
          hits: [],
        };
        out.set(key, res);
      }
      if (res.hits.length >= perSession) continue;
      res.hits.push({ role: r.role, at: r.atMs === null ? null : new Date(r.atMs).toISOString(), position: r.position, ...markSnippet(r.snippet) });
    }
    return [...out.values()];
  }
}
