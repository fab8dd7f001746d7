/**
 * The action log (migration 4): who did what to which session, and how it ended. Async like every
 * fleet-shared repository, so a PostgreSQL implementation can satisfy the same interface.
 */
import type Database from 'better-sqlite3';
import type { ActionLog, ActionRecord } from '../hub/actions.ts';

export interface ActionsRepository extends ActionLog {
  /** Newest first; `limit` defaults to 100 and is capped at 1000. */
  list(filter?: { sessionId?: string; limit?: number }): Promise<ActionRecord[]>;
}

interface ActionRow {
  id: string;
  at: string;
  actor: string;
  action: string;
  session_id: string;
  harness: string | null;
  outcome: string;
  detail: string;
}

const toRecord = (r: ActionRow): ActionRecord => ({
  id: r.id,
  at: r.at,
  actor: r.actor as ActionRecord['actor'],
  action: r.action as ActionRecord['action'],
  sessionId: r.session_id,
  harness: r.harness as ActionRecord['harness'],
  outcome: r.outcome,
  detail: JSON.parse(r.detail) as Record<string, unknown>,
});

export function createSqliteActionsRepository(db: Database.Database): ActionsRepository {
  const insert = db.prepare('INSERT INTO actions(id, at, actor, action, session_id, harness, outcome, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const recent = db.prepare<[number], ActionRow>('SELECT * FROM actions ORDER BY id DESC LIMIT ?');
  const bySession = db.prepare<[string, number], ActionRow>('SELECT * FROM actions WHERE session_id = ? ORDER BY id DESC LIMIT ?');
  return {
    async append(r) {
      insert.run(r.id, r.at, r.actor, r.action, r.sessionId, r.harness, r.outcome, JSON.stringify(r.detail));
    },
    async list(filter = {}) {
      const limit = Math.min(Math.max(1, Math.trunc(filter.limit ?? 100)), 1000);
      const rows = filter.sessionId === undefined ? recent.all(limit) : bySession.all(filter.sessionId, limit);
      return rows.map(toRecord);
    },
  };
}
