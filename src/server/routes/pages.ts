/**
 * Operator surface of the pager: GET /api/pages (filters: status, kind, sessionId, limit),
 * GET /api/pages/:id, POST /api/pages/:id/answer { text } | { choice }, POST /api/pages/:id/dismiss.
 * Answers are committed before the waiting agent is woken (pager); page text is returned verbatim as
 * JSON strings — the board renders it as plain text.
 */
import { MusterError } from '../../errors/index.ts';
import { PAGE_KINDS, PAGE_STATUSES, type Pager, type PageFilter, type PageKind, type PageStatus } from '../../pager/index.ts';
import { isSessionId } from '../../sources/ids.ts';
import { readJsonObject } from '../body.ts';
import type { App } from '../env.ts';

export function parsePageFilter(q: Record<string, string | undefined>): PageFilter {
  const f: PageFilter = {};
  if (q.status !== undefined) {
    if (!(PAGE_STATUSES as readonly string[]).includes(q.status)) throw new MusterError('invalid_argument', `status must be one of ${PAGE_STATUSES.join(', ')}`);
    f.status = q.status as PageStatus;
  }
  if (q.kind !== undefined) {
    if (!(PAGE_KINDS as readonly string[]).includes(q.kind)) throw new MusterError('invalid_argument', `kind must be one of ${PAGE_KINDS.join(', ')}`);
    f.kind = q.kind as PageKind;
  }
  if (q.sessionId !== undefined) {
    if (!isSessionId(q.sessionId)) throw new MusterError('invalid_id', 'sessionId is not a session id');
    f.sessionId = q.sessionId;
  }
  if (q.limit !== undefined) {
    if (!/^\d{1,4}$/.test(q.limit) || Number(q.limit) < 1 || Number(q.limit) > 1000) throw new MusterError('invalid_argument', 'limit must be 1..1000');
    f.limit = Number(q.limit);
  }
  return f;
}

export function pageRoutes(opts: { pager: Pager }) {
  const { pager } = opts;
  return (app: App) => {
    app.get('/api/pages', async (c) => {
      const pages = await pager.list(parsePageFilter(c.req.query()));
      return c.json({ ok: true, pages, counts: pager.counts() });
    });
    app.get('/api/pages/:id', async (c) => c.json({ ok: true, page: await pager.get(c.req.param('id')) }));
    app.post('/api/pages/:id/answer', async (c) => {
      const id = c.req.param('id');
      const body = await readJsonObject(c);
      return c.json({ ok: true, page: await pager.answer(id, body, 'operator') });
    });
    app.post('/api/pages/:id/dismiss', async (c) => c.json({ ok: true, page: await pager.dismiss(c.req.param('id')) }));
  };
}
