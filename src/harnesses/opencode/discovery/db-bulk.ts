/**
 * Reads many OpenCode sessions at once: one query for their session rows and one pass over their
 * messages in index order (`message_session_time_created_id_idx`: session, then time, then id), instead
 * of five queries per session. This is what a cold start over a long history (and a scan that finds many
 * new sessions) costs: about one read of every message row, not thousands of seeks.
 *
 * It yields the same summaries as the per-session reader of db-reader.ts, field for field (a test
 * holds the two together): the last prompt and reply are the newest well-formed ones, the reply only
 * among the session's 50 newest messages as there; usage records are every assistant message updated
 * at or after the session's mark. Message JSON is never parsed whole in JS: one `json_extract` of all
 * the fields wanted returns a small array. Parts are read only for the last reply's running tool and,
 * while the title is OpenCode's placeholder, the first prompt (one index seek each).
 * The caller holds the read transaction (one snapshot for a session and its messages).
 */
import type { Database as Db, Statement } from 'better-sqlite3';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { createPartReader, sessionColumns, toSummary, type SessionRow } from './db-rows.ts';
import { numberOrNull, stringOrNull, type MessageFacts, type OpenCodeSessionSummary } from './summary.ts';
import { usageRecordOf } from './usage-records.ts';

export interface BulkReadResult {
  sessions: OpenCodeSessionSummary[];
  usage: UsageRecord[];
  /** Malformed message rows of the sessions read. */
  malformed: number;
}

/** How many newest messages the per-session reader looks at for the last reply. */
export const RECENT = 50;

/** Paths of one `json_extract`, in the order of the array it returns. */
const PATHS = ['$.role', '$.time.created', '$.time.completed', '$.error.name', '$.finish', '$.modelID',
  '$.tokens.input', '$.tokens.output', '$.tokens.reasoning', '$.tokens.cache.read', '$.tokens.cache.write', '$.cost'];
type Fields = [unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown];

/** Per session: what the pass has gathered so far. */
interface Acc {
  n: number;
  last: string | null;
  lastUser: MessageFacts | null;
  lastAssistant: MessageFacts | null;
  lastAssistantAt: number;
  /** Assistant sums, for an older schema without token columns on the session. */
  sums: Sums;
  mark: number;
}

export interface BulkReader {
  /** Reads `ids` (top-level session ids); usage from each one's mark on (0 when absent). */
  read(ids: readonly string[], marks?: ReadonlyMap<string, number>): BulkReadResult;
}

export function createBulkReader(db: Db, cols: Set<string>): BulkReader {
  const msgCols = new Set((db.pragma('table_info(message)') as { name: string }[]).map((c) => c.name));
  const updated = msgCols.has('time_updated') ? 'time_updated' : 'time_created';
  const sessionsQ = db.prepare(`SELECT ${sessionColumns(cols).join(', ')} FROM session WHERE id IN (SELECT value FROM json_each(?))`);
  const messagesQ: Statement = db.prepare(`SELECT session_id, id, time_created, ${updated}, id || ':' || time_updated,
      CASE WHEN json_valid(data) THEN json_extract(data, ${PATHS.map((p) => `'${p}'`).join(', ')}) END
    FROM message WHERE session_id IN (SELECT value FROM json_each(?)) ORDER BY session_id, time_created, id`).raw();
  const parts = createPartReader(db);
  const hasTotals = cols.has('tokens_input') && cols.has('cost');

  return {
    read(ids, marks) {
      const out: BulkReadResult = { sessions: [], usage: [], malformed: 0 };
      const list = JSON.stringify(ids);
      const accs = new Map<string, Acc>();
      for (const row of messagesQ.iterate(list) as Iterable<unknown[]>) {
        const sid = String(row[0]);
        let a = accs.get(sid);
        if (!a) {
          a = { n: 0, last: null, lastUser: null, lastAssistant: null, lastAssistantAt: -1, sums: { i: null, o: null, r: null, cr: null, cw: null, cost: null }, mark: marks?.get(sid) ?? 0 };
          accs.set(sid, a);
        }
        a.last = typeof row[4] === 'string' ? row[4] : null;
        const index = a.n++;
        if (typeof row[5] !== 'string') { out.malformed++; continue; }
        const f = JSON.parse(row[5]) as Fields;
        const role = f[0];
        if (role !== 'user' && role !== 'assistant') continue;
        const facts: MessageFacts = {
          id: String(row[1]), role, createdMs: numberOrNull(f[1]) ?? numberOrNull(row[2]) ?? 0, completedMs: numberOrNull(f[2]),
          error: stringOrNull(f[3]), finish: stringOrNull(f[4]), model: stringOrNull(f[5]),
        };
        if (role === 'user') { a.lastUser = facts; continue; }
        a.lastAssistant = facts;
        a.lastAssistantAt = index;
        if (!hasTotals) addSums(a.sums, f);
        const tu = numberOrNull(row[3]);
        const since = marks?.get(sid) ?? 0;
        if (tu === null || tu < since) continue;
        a.mark = Math.max(a.mark, tu);
        const r = usageRecordOf(sid, { id: row[1], tc: row[2], model: f[5], created: f[1], i: f[6], o: f[7], r: f[8], cr: f[9], cw: f[10], cost: f[11] });
        if (r) out.usage.push(r);
      }
      for (const row of sessionsQ.all(list) as SessionRow[]) {
        const id = String(row.id);
        const a = accs.get(id);
        // As the per-session reader: the reply only when it is among the 50 newest messages.
        const lastAssistant = a && a.lastAssistantAt >= a.n - RECENT ? a.lastAssistant : null;
        const key = `${String(row.time_updated)}|${a?.last ?? ''}`;
        const sums = hasTotals ? undefined : (a?.sums ?? { i: null, o: null, r: null, cr: null, cw: null, cost: null });
        const s = toSummary(row, cols, key, { lastUser: a?.lastUser ?? null, lastAssistant, sums, parts });
        out.sessions.push({ ...s, usageMark: a?.mark ?? (marks?.get(id) ?? 0) });
      }
      return out;
    },
  };
}

/** Sums as SQLite's sum() keeps them: null until a non-null value is added. */
type Sums = Record<'i' | 'o' | 'r' | 'cr' | 'cw' | 'cost', number | null>;
const SUM_FIELDS = [['i', 6], ['o', 7], ['r', 8], ['cr', 9], ['cw', 10], ['cost', 11]] as const;

function addSums(s: Sums, f: Fields): void {
  for (const [k, at] of SUM_FIELDS) {
    const v = f[at];
    if (v === null || v === undefined) continue;
    s[k] = (s[k] ?? 0) + sqlNumber(v);
  }
}

/** What SQLite's sum() adds for a JSON value: a number as is, a numeric string as its number, else 0. */
function sqlNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') { const n = parseFloat(v); return Number.isFinite(n) ? n : 0; }
  return 0;
}
