// The pager's REST twin of the MCP tools (POST /api/pages/ask|notify, /api/pages/:id/wait|cancel),
// which the pi/omp extension calls: attribution from the same identity headers, the same bounded wait,
// and bad input as a 4xx with a stable code. The real pi and omp drive it in test/harness/wrapper.test.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { tempHome } from './kit.ts';
import { startPagerDaemon, type RunningDaemon } from './pager-kit.ts';

const SID = '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const IDENTITY = { 'x-muster-session-id': SID, 'x-muster-harness': 'pi', 'x-muster-launch-id': 'launch-rest-1', 'x-muster-cwd': '/work/rest' };

describe('pager over REST (the pi/omp extension path)', () => {
  const t = tempHome('muster-e2e-pager-rest-');
  let d: RunningDaemon;
  const post = async (path: string, body: unknown, headers: Record<string, string> = IDENTITY, token: string | null = null) => {
    const r = await fetch(`${d.base}/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token ?? d.token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> & { error?: { code: string } } };
  };

  before(async () => {
    d = await startPagerDaemon(t.home, { askWaitSeconds: 2 });
  });
  after(async () => {
    await d?.stop();
    t.cleanup();
  });

  it('ask names the session from the identity headers; a waiting call returns the answer once it is given', async () => {
    const asked = await post('/pages/ask', { question: 'Deploy?', choices: ['yes', 'no'], urgency: 'high' });
    assert.equal(asked.status, 200, JSON.stringify(asked.json));
    const page = asked.json.page as { id: string; sessionId: string; harness: string; kind: string; attribution: { via: string; launchId: string; cwd: string } };
    assert.deepEqual([page.kind, page.sessionId, page.harness], ['question', SID, 'pi']);
    assert.deepEqual([page.attribution.via, page.attribution.launchId, page.attribution.cwd], ['header', 'launch-rest-1', '/work/rest']);
    const waiting = post(`/pages/${page.id}/wait`, { seconds: 10 });
    await new Promise((r) => setTimeout(r, 200));
    const answered = await d.api('POST', `/pages/${page.id}/answer`, { choice: 1 });
    assert.equal(answered.status, 200, JSON.stringify(answered.json));
    const w = await waiting;
    assert.equal(w.status, 200);
    assert.deepEqual(w.json, { ok: true, status: 'answered', pageId: page.id, answer: 'no', choice: 1 });
    // Delivered once; a later wait still hands the answer out (an agent that lost it asks again).
    const again = await post(`/pages/${page.id}/wait`, {});
    assert.equal(again.json.status, 'answered');
  });

  it('the wait is bounded by askWaitSeconds: no answer → pending with the page id', async () => {
    const asked = await post('/pages/ask', { question: 'Still there?' });
    const id = (asked.json.page as { id: string }).id;
    const t0 = Date.now();
    const w = await post(`/pages/${id}/wait`, { seconds: 60 });
    assert.deepEqual(w.json, { ok: true, status: 'pending', pageId: id });
    const took = Date.now() - t0;
    assert.ok(took >= 1500 && took < 10_000, `capped near the 2 s setting, took ${took} ms`);
  });

  it('notify opens a notice (nothing to wait for); cancel withdraws a question and a wait then says so', async () => {
    const n = await post('/pages/notify', { message: 'Tests are green', level: 'info' });
    assert.equal(n.status, 200, JSON.stringify(n.json));
    const notice = n.json.page as { id: string; kind: string; sessionId: string };
    assert.deepEqual([notice.kind, notice.sessionId], ['notice', SID]);
    const w = await post(`/pages/${notice.id}/wait`, {});
    assert.equal(w.status, 400);
    assert.equal(w.json.error?.code, 'invalid_argument');
    const q = await post('/pages/ask', { question: 'Rename the module?' });
    const id = (q.json.page as { id: string }).id;
    const c = await post(`/pages/${id}/cancel`, {});
    assert.equal((c.json.page as { status: string }).status, 'cancelled');
    assert.deepEqual((await post(`/pages/${id}/wait`, {})).json, { ok: true, status: 'cancelled', pageId: id });
  });

  it('bad input is a 4xx with a stable code, never a 500; no token is 401', async () => {
    const cases: [string, unknown, number, string][] = [
      ['/pages/ask', {}, 400, 'invalid_argument'],
      ['/pages/ask', { question: 'x'.repeat(4001) }, 400, 'invalid_argument'],
      ['/pages/ask', { question: 'x'.repeat(100_000) }, 413, 'payload_too_large'],
      ['/pages/notify', { message: '' }, 400, 'invalid_argument'],
      ['/pages/ask', [1, 2], 400, 'invalid_body'],
      ['/pages/pg_does-not-exist/wait', { seconds: -1 }, 400, 'invalid_argument'],
      ['/pages/pg_does-not-exist/wait', { seconds: 'soon' }, 400, 'invalid_argument'],
    ];
    for (const [path, body, status, code] of cases) {
      const r = await post(path, body);
      assert.equal(r.status, status, `${path} ${JSON.stringify(body).slice(0, 40)} → ${JSON.stringify(r.json).slice(0, 200)}`);
      assert.equal(r.json.error?.code, code);
    }
    const missing = await post('/pages/pg_does-not-exist/wait', {});
    assert.ok(missing.status >= 400 && missing.status < 500, JSON.stringify(missing.json));
    const anonymous = await post('/pages/ask', { question: 'who am I?' }, IDENTITY, 'wrong-token');
    assert.equal(anonymous.status, 401);
  });
});
