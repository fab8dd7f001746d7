/**
 * SQLite goals repository (table `goals`, migration 6). One goal per session (UNIQUE session_id: a new
 * goal replaces the old one). `update` is a compare-and-set on the status so an operator's pause or a
 * clear during an audit is never overwritten by the driver.
 */
import type Database from 'better-sqlite3';
import type { Goal, GoalStatus, GoalsRepository } from '../goals/index.ts';

interface GoalRow {
  id: string;
  session_id: string;
  harness: string;
  objective: string;
  status: string;
  token_budget: number | null;
  max_turns: number;
  turns: number;
  tokens_used: number;
  audit_tokens: number;
  time_used_seconds: number;
  strikes: number;
  audit_failures: number;
  auditor: string;
  last_audit: string | null;
  reason: string | null;
  page_id: string | null;
  created_at: string;
  updated_at: string;
  settled_at: string | null;
}

export const GOALS_TABLE_SQL = `
  CREATE TABLE goals (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL UNIQUE,
    harness TEXT NOT NULL,
    objective TEXT NOT NULL,
    status TEXT NOT NULL,
    token_budget INTEGER,
    max_turns INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    tokens_used INTEGER NOT NULL,
    audit_tokens INTEGER NOT NULL,
    time_used_seconds INTEGER NOT NULL,
    strikes INTEGER NOT NULL,
    audit_failures INTEGER NOT NULL,
    auditor TEXT NOT NULL,
    last_audit TEXT,
    reason TEXT,
    page_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    settled_at TEXT
  );
  CREATE INDEX goals_status ON goals(status);
  CREATE INDEX goals_page ON goals(page_id);
`;

function toGoal(r: GoalRow): Goal {
  return {
    id: r.id, sessionId: r.session_id, harness: r.harness as Goal['harness'], objective: r.objective, status: r.status as GoalStatus,
    tokenBudget: r.token_budget, maxTurns: r.max_turns, turns: r.turns, tokensUsed: r.tokens_used, auditTokens: r.audit_tokens,
    timeUsedSeconds: r.time_used_seconds, strikes: r.strikes, auditFailures: r.audit_failures, auditor: r.auditor,
    lastAudit: r.last_audit ? (JSON.parse(r.last_audit) as Goal['lastAudit']) : null, reason: r.reason, pageId: r.page_id,
    createdAt: r.created_at, updatedAt: r.updated_at, settledAt: r.settled_at,
  };
}

function toParams(g: Goal) {
  return {
    id: g.id, session_id: g.sessionId, harness: g.harness, objective: g.objective, status: g.status, token_budget: g.tokenBudget,
    max_turns: g.maxTurns, turns: g.turns, tokens_used: g.tokensUsed, audit_tokens: g.auditTokens, time_used_seconds: g.timeUsedSeconds,
    strikes: g.strikes, audit_failures: g.auditFailures, auditor: g.auditor, last_audit: g.lastAudit ? JSON.stringify(g.lastAudit) : null,
    reason: g.reason, page_id: g.pageId, created_at: g.createdAt, updated_at: g.updatedAt, settled_at: g.settledAt,
  };
}

const COLUMNS = ['id', 'session_id', 'harness', 'objective', 'status', 'token_budget', 'max_turns', 'turns', 'tokens_used', 'audit_tokens', 'time_used_seconds',
  'strikes', 'audit_failures', 'auditor', 'last_audit', 'reason', 'page_id', 'created_at', 'updated_at', 'settled_at'];

export function createSqliteGoalsRepository(db: Database.Database): GoalsRepository {
  const delSession = db.prepare('DELETE FROM goals WHERE session_id = ?');
  const ins = db.prepare(`INSERT INTO goals(${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const set = COLUMNS.filter((c) => c !== 'id').map((c) => `${c} = @${c}`).join(', ');
  const upd = db.prepare(`UPDATE goals SET ${set} WHERE id = @id`);
  const updIf = db.prepare(`UPDATE goals SET ${set} WHERE id = @id AND status = @if_status`);
  const byId = db.prepare<[string], GoalRow>('SELECT * FROM goals WHERE id = ?');
  const bySession = db.prepare<[string], GoalRow>('SELECT * FROM goals WHERE session_id = ?');
  const all = db.prepare<[number], GoalRow>('SELECT * FROM goals ORDER BY id DESC LIMIT ?');
  const byStatus = db.prepare<[string, number], GoalRow>('SELECT * FROM goals WHERE status = ? ORDER BY id DESC LIMIT ?');
  const del = db.prepare('DELETE FROM goals WHERE id = ?');
  const replace = db.transaction((g: Goal) => {
    delSession.run(g.sessionId);
    ins.run(toParams(g));
  });
  return {
    async insert(goal) {
      replace(goal);
    },
    async get(id) {
      const r = byId.get(id);
      return r ? toGoal(r) : undefined;
    },
    async getBySession(sessionId) {
      const r = bySession.get(sessionId);
      return r ? toGoal(r) : undefined;
    },
    async list(filter = {}) {
      const limit = Math.min(Math.max(filter.limit ?? 200, 1), 1000);
      return (filter.status ? byStatus.all(filter.status, limit) : all.all(limit)).map(toGoal);
    },
    async update(goal, ifStatus) {
      const r = ifStatus === undefined ? upd.run(toParams(goal)) : updIf.run({ ...toParams(goal), if_status: ifStatus });
      return r.changes === 1;
    },
    async remove(id) {
      return del.run(id).changes === 1;
    },
  };
}
