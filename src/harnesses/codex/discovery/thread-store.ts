/**
 * Codex's own thread stores, read only:
 * `session_index.jsonl` (names), `state_5.sqlite` (threads), `goals_1.sqlite` (native goals).
 * SQLite files are opened read-only, must already exist, are read in one statement and closed at
 * once, so Codex never sees a writer or a lingering reader from Muster. Results are cached by the
 * files' size and mtime (db and -wal) so an unchanged store is not reopened.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import { assertSqliteFilesRegular, isNotRegularFile, sqliteAddon, statRegularFile } from '../../../discovery/regular-file/index.ts';
import type { NotRegularFileError } from '../../../discovery/regular-file/index.ts';

export interface ThreadRow {
  id: string;
  rolloutPath: string | null;
  cwd: string | null;
  title: string | null;
  name: string | null;
  model: string | null;
  gitBranch: string | null;
  archived: boolean;
  updatedAtMs: number | null;
}

export interface CodexGoal {
  objective: string;
  /** active | paused | blocked | usage_limited | budget_limited | complete */
  status: string;
  tokenBudget: number | null;
  tokensUsed: number;
}

type Row = Record<string, unknown>;
const s = (x: unknown): string | null => (typeof x === 'string' && x !== '' ? x : null);
const n = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : typeof x === 'bigint' ? Number(x) : null);

function stamp(path: string): string | null {
  const parts: string[] = [];
  for (const p of [path, `${path}-wal`]) {
    try { const st = statSync(p); parts.push(`${st.size}:${st.mtimeMs}`); } catch { parts.push('-'); }
  }
  return parts[0] === '-' ? null : parts.join('|');
}

/**
 * Runs one SELECT on a read-only connection and closes it. Throws on any SQLite error, and for a store
 * or side file that is not a regular file (SQLite's own open would block on a FIFO); the caller counts.
 */
function selectAll(path: string, sql: string): Row[] {
  assertSqliteFilesRegular(path);
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 200, nativeBinding: sqliteAddon() });
  try {
    return db.prepare(sql).all() as Row[];
  } finally {
    db.close();
  }
}

export interface ThreadStore {
  /** Threads by id from state_5.sqlite ({} when absent or unreadable). */
  threads(): Map<string, ThreadRow>;
  /** Goals by thread id from goals_1.sqlite. */
  goals(): Map<string, CodexGoal>;
  /** Latest `thread_name` per id from session_index.jsonl (read incrementally). */
  names(): Map<string, string>;
}

/**
 * `onError` hears unreadable stores; `onRefused` a store file that is not a regular file (FIFO,
 * socket, device), which is never opened. Default: counted as an error.
 */
export function createThreadStore(
  home: string,
  onError: (msg: string) => void,
  onRefused: (e: NotRegularFileError) => void = (e) => onError(e.message),
): ThreadStore {
  const failed = (path: string, e: unknown): void => {
    if (isNotRegularFile(e)) onRefused(e);
    else onError(`read ${path}: ${(e as Error).message}`);
  };
  const cache = new Map<string, { stamp: string; value: unknown }>();
  const cached = <T>(path: string, empty: T, load: () => T): T => {
    const st = stamp(path);
    if (st === null) return empty;
    const hit = cache.get(path);
    if (hit && hit.stamp === st) return hit.value as T;
    try {
      const value = load();
      cache.set(path, { stamp: st, value });
      return value;
    } catch (e) {
      failed(path, e);
      return (hit?.value as T | undefined) ?? empty;
    }
  };

  const statePath = join(home, 'state_5.sqlite');
  const goalsPath = join(home, 'goals_1.sqlite');
  const indexPath = join(home, 'session_index.jsonl');
  let names = { offset: 0, size: -1, mtimeMs: -1, map: new Map<string, string>() };

  return {
    threads: () => cached(statePath, new Map<string, ThreadRow>(), () => {
      const out = new Map<string, ThreadRow>();
      // SELECT *: the column set grows between Codex releases; missing columns read as null.
      for (const r of selectAll(statePath, 'SELECT * FROM threads')) {
        const id = s(r.id);
        if (!id) continue;
        out.set(id.toLowerCase(), {
          id: id.toLowerCase(), rolloutPath: s(r.rollout_path), cwd: s(r.cwd), title: s(r.title), name: s(r.name), model: s(r.model),
          gitBranch: s(r.git_branch), archived: n(r.archived) === 1, updatedAtMs: n(r.updated_at_ms) ?? ((n(r.updated_at) ?? 0) * 1000 || null),
        });
      }
      return out;
    }),
    goals: () => cached(goalsPath, new Map<string, CodexGoal>(), () => {
      const out = new Map<string, CodexGoal>();
      for (const r of selectAll(goalsPath, 'SELECT * FROM thread_goals')) {
        const id = s(r.thread_id);
        const objective = s(r.objective);
        if (!id || objective === null) continue;
        out.set(id.toLowerCase(), { objective, status: s(r.status) ?? 'active', tokenBudget: n(r.token_budget), tokensUsed: n(r.tokens_used) ?? 0 });
      }
      return out;
    }),
    names: () => {
      let st;
      try {
        st = statRegularFile(indexPath);
      } catch (e) {
        if (isNotRegularFile(e)) onRefused(e); // else absent: no names yet
        return names.map;
      }
      if (st.size === names.size && st.mtimeMs === names.mtimeMs) return names.map;
      // Appended only; a shorter file was rewritten: start over.
      if (st.size < names.offset) names = { offset: 0, size: -1, mtimeMs: -1, map: new Map() };
      try {
        const r = readJsonlFrom(indexPath, names.offset, (rec) => {
          const o = rec as { id?: unknown; thread_name?: unknown };
          if (typeof o.id === 'string' && typeof o.thread_name === 'string' && o.thread_name !== '') names.map.set(o.id.toLowerCase(), o.thread_name);
        });
        names = { ...names, offset: r.offset, size: st.size, mtimeMs: st.mtimeMs };
      } catch (e) { failed(indexPath, e); }
      return names.map;
    },
  };
}
