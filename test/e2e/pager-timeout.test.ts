// Issue 7, Build 2 / Acceptance "Timeouts", with the real default bound (45 s): ask_operator sends
// progress notifications while it waits, so a client whose own timeout (15 s here) resets on progress
// keeps waiting, and the call returns `pending` with its pageId just after 45 s — never killed, never lost.
import { it, after } from 'node:test';
import assert from 'node:assert/strict';
import { tempHome } from './kit.ts';
import { callTool, connectMcp, startPagerDaemon } from './pager-kit.ts';

it('the default 45 s bound: progress every few seconds keeps a 15 s client timeout alive; then pending', { timeout: 70_000 }, async () => {
  const t = tempHome('muster-e2e-pager-45-');
  const d = await startPagerDaemon(t.home); // askWaitSeconds stays at its default
  const client = await connectMcp(d);
  after(async () => {
    await client.close().catch(() => undefined);
    await d.stop();
    t.cleanup();
  });
  const settings = (await d.api('GET', '/settings')).json.settings as { askWaitSeconds: number };
  assert.equal(settings.askWaitSeconds, 45);
  let progress = 0;
  const t0 = Date.now();
  const r = await callTool(client, 'ask_operator', { question: 'Nobody will answer this in time' }, { timeout: 15_000, resetTimeoutOnProgress: true, onprogress: () => progress++ });
  const took = Date.now() - t0;
  assert.equal(r.status, 'pending');
  assert.match(r.pageId, /^pag_/);
  assert.ok(took >= 45_000 && took < 52_000, `returned after ${took} ms`);
  assert.ok(progress >= 8, `${progress} progress notifications`);
  const page = await d.api('GET', `/pages/${r.pageId}`);
  assert.equal((page.json.page as { status: string }).status, 'pending');
});
