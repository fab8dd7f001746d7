/**
 * SQLite pages repository (table `pages`, `page_deliveries`; migration 2). Every transition is a
 * compare-and-set UPDATE on the status, so a page is answered once even under concurrent answers,
 * and synchronous=FULL (set by the store) makes an answer durable before any waiter is woken.
 */
import type Database from 'better-sqlite3';
import type { DeliveryRecord, Page, PageAnswer, PageFilter, PagesRepository, Transition } from '../pager/types.ts';
import { LIMITS } from '../pager/validate.ts';

interface PageRow {
  id: string;
  kind: string;
  session_id: string | null;
  harness: string | null;
  limit_key: string;
  attribution: string;
  question: string;
  choices: string | null;
  urgency: string;
  level: string | null;
  context: string | null;
  status: string;
  answer: string | null;
  created_at: string;
  answered_at: string | null;
  delivered_at: string | null;
  closed_at: string | null;
  closed_by: string | null;
  expires_at: string;
}

interface DeliveryRow { page_id: string; channel: string; status: string; error: string | null; at: string }

function toPage(r: PageRow, deliveries: DeliveryRecord[]): Page {
  return {
    id: r.id,
    kind: r.kind as Page['kind'],
    sessionId: r.session_id,
    harness: r.harness as Page['harness'],
    attribution: JSON.parse(r.attribution) as Page['attribution'],
    limitKey: r.limit_key,
    question: r.question,
    choices: r.choices === null ? null : (JSON.parse(r.choices) as string[]),
    urgency: r.urgency as Page['urgency'],
    level: r.level as Page['level'],
    context: r.context,
    status: r.status as Page['status'],
    answer: r.answer === null ? null : (JSON.parse(r.answer) as PageAnswer),
    createdAt: r.created_at,
    answeredAt: r.answered_at,
    deliveredAt: r.delivered_at,
    closedAt: r.closed_at,
    closedBy: r.closed_by,
    expiresAt: r.expires_at,
    deliveries,
  };
}

export function createSqlitePagesRepository(db: Database.Database): PagesRepository {
  const insert = db.prepare(`INSERT INTO pages (id, kind, session_id, harness, limit_key, attribution, question, choices, urgency, level, context,
    status, answer, created_at, answered_at, delivered_at, closed_at, closed_by, expires_at)
    VALUES (@id, @kind, @session_id, @harness, @limit_key, @attribution, @question, @choices, @urgency, @level, @context,
    @status, @answer, @created_at, @answered_at, @delivered_at, @closed_at, @closed_by, @expires_at)`);
  const getOne = db.prepare<[string], PageRow>('SELECT * FROM pages WHERE id = ?');
  const deliveriesOf = db.prepare<[string], DeliveryRow>('SELECT * FROM page_deliveries WHERE page_id = ? ORDER BY rowid');
  const pendingCount = db.prepare<[string, string], { n: number }>("SELECT count(*) AS n FROM pages WHERE limit_key = ? AND kind = ? AND status = 'pending'");
  const answerStmt = db.prepare("UPDATE pages SET status = 'answered', answer = ?, answered_at = ? WHERE id = ? AND status = 'pending' AND kind = 'question'");
  const deliverStmt = db.prepare("UPDATE pages SET status = 'delivered', delivered_at = ? WHERE id = ? AND status = 'answered'");
  const closeStmt = db.prepare("UPDATE pages SET status = ?, closed_by = ?, closed_at = ? WHERE id = ? AND status = 'pending'");
  const dueStmt = db.prepare<[string], PageRow>("SELECT * FROM pages WHERE status = 'pending' AND expires_at <= ?");
  const nextDue = db.prepare<[], { at: string | null }>("SELECT min(expires_at) AS at FROM pages WHERE status = 'pending'");
  const expireStmt = db.prepare("UPDATE pages SET status = 'expired', closed_by = 'expiry', closed_at = ? WHERE id = ? AND status = 'pending'");
  const addDelivery = db.prepare('INSERT INTO page_deliveries (page_id, channel, status, error, at) VALUES (?, ?, ?, ?, ?)');
  const countsStmt = db.prepare<[], { kind: string; status: string; n: number }>('SELECT kind, status, count(*) AS n FROM pages GROUP BY kind, status');

  const load = (r: PageRow | undefined): Page | undefined =>
    r ? toPage(r, deliveriesOf.all(r.id).map((d) => ({ channel: d.channel, status: d.status as DeliveryRecord['status'], error: d.error, at: d.at }))) : undefined;
  const transition = (changes: number, id: string): Transition => ({ changed: changes === 1, page: load(getOne.get(id)) });

  return {
    async insert(p) {
      insert.run({
        id: p.id,
        kind: p.kind,
        session_id: p.sessionId,
        harness: p.harness,
        limit_key: p.limitKey,
        attribution: JSON.stringify(p.attribution),
        question: p.question,
        choices: p.choices === null ? null : JSON.stringify(p.choices),
        urgency: p.urgency,
        level: p.level,
        context: p.context,
        status: p.status,
        answer: p.answer === null ? null : JSON.stringify(p.answer),
        created_at: p.createdAt,
        answered_at: p.answeredAt,
        delivered_at: p.deliveredAt,
        closed_at: p.closedAt,
        closed_by: p.closedBy,
        expires_at: p.expiresAt,
      });
    },
    async get(id) {
      return load(getOne.get(id));
    },
    async list(filter: PageFilter = {}) {
      // Column names are fixed here; only values are bound.
      const conds: [string, string | undefined][] = [['status', filter.status], ['kind', filter.kind], ['session_id', filter.sessionId]];
      const used = conds.filter((c): c is [string, string] => c[1] !== undefined);
      const where = used.map(([col]) => `${col} = ?`);
      const args = used.map(([, v]) => v);
      const limit = Math.min(Math.max(1, filter.limit ?? LIMITS.listed), LIMITS.listedMax);
      const sql = `SELECT * FROM pages ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ${limit}`;
      return db.prepare<string[], PageRow>(sql).all(...args).map((r) => load(r) as Page);
    },
    async countPending(limitKey, kind) {
      return pendingCount.get(limitKey, kind)?.n ?? 0;
    },
    async answer(id, answer, at) {
      return transition(answerStmt.run(JSON.stringify(answer), at, id).changes, id);
    },
    async markDelivered(id, at) {
      return transition(deliverStmt.run(at, id).changes, id);
    },
    async close(id, status, by, at) {
      return transition(closeStmt.run(status, by, at, id).changes, id);
    },
    async expireDue(now) {
      // One transaction: the pages reported are exactly the ones this call expired.
      return db.transaction(() => dueStmt.all(now).filter((r) => expireStmt.run(now, r.id).changes === 1).map((r) => load(getOne.get(r.id)) as Page))();
    },
    async nextExpiry() {
      return nextDue.get()?.at ?? null;
    },
    async recordDelivery(id, r) {
      addDelivery.run(id, r.channel, r.status, r.error, r.at);
    },
    async counts() {
      const out: Record<string, number> = {};
      for (const r of countsStmt.all()) out[`${r.kind}.${r.status}`] = r.n;
      return out;
    },
  };
}
