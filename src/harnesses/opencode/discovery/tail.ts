/**
 * The last messages of an OpenCode session, as plain text, from its store (read-only, one short
 * snapshot): each user or assistant message's text parts joined, oldest first, with the message's
 * time. Tool parts are not text; a message with no text part is left out. Part JSON is read with
 * `json_extract`, never parsed in JS, so a huge tool output costs nothing.
 */
import type { TailMessage } from '../../../discovery/contract.ts';
import { openOpenCodeDb } from './db-reader.ts';

interface Row { id: string; role: string | null; created: number; text: string | null }

export function readOpenCodeTail(dbPath: string, sessionId: string, limit: number): TailMessage[] {
  let db: ReturnType<typeof openOpenCodeDb>;
  try {
    db = openOpenCodeDb(dbPath);
  } catch {
    return [];
  }
  try {
    const rows = db.prepare(
      `SELECT m.id AS id, m.time_created AS created,
         CASE WHEN json_valid(m.data) THEN json_extract(m.data, '$.role') END AS role,
         (SELECT group_concat(json_extract(p.data, '$.text'), '')
            FROM part p WHERE p.message_id = m.id AND json_valid(p.data) AND json_extract(p.data, '$.type') = 'text') AS text
       FROM message m WHERE m.session_id = ?
       ORDER BY m.time_created DESC, m.id DESC LIMIT ?`,
    ).all(sessionId, Math.max(1, Math.min(limit * 2, 400))) as Row[];
    const out: TailMessage[] = [];
    for (const r of rows.reverse()) {
      if ((r.role !== 'user' && r.role !== 'assistant') || !r.text) continue;
      out.push({ role: r.role, text: r.text, at: Number.isFinite(r.created) ? new Date(r.created).toISOString() : null });
    }
    return out.slice(-limit);
  } catch {
    return [];
  } finally {
    db.close();
  }
}
