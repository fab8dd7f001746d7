// The board in a real browser (issue 5 §8, issue 2 acceptance): token URL → cookie and clean URL,
// sessions from fake harness homes, a registry status change on the page within 1 s, no request
// leaving 127.0.0.1, screenshots of the list view in light and dark.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { foreignRequests, screenshot, spawnFakeClaude, startBoard, waitInPage, writeClaudeSession, writeRegistry, type BoardRig, type FakeSession } from './browser-kit.ts';

const LIVE: FakeSession = { id: '40437031-5c17-43a7-8062-c5f8980812c9', cwd: '/home/dev/muster', title: 'Wire the board to the hub' };
const DORMANT: FakeSession = { id: '2e0e7aa2-3d62-481c-8a50-166cd0ac192f', cwd: '/home/dev/website', title: 'Fix the <b>pricing</b> page', ts: '2026-11-29T10:00:00.000Z' };

describe('board: list view in chromium', () => {
  let rig: BoardRig;
  let claude: ChildProcess;

  before(async () => {
    claude = spawnFakeClaude();
    rig = await startBoard({
      prepare: (home) => {
        writeClaudeSession(home, { ...LIVE, pid: claude.pid, status: 'busy' });
        writeClaudeSession(home, DORMANT);
      },
    });
  });
  after(async () => {
    claude.kill('SIGKILL');
    await rig?.stop();
  });

  it('the token URL sets the per-port cookie and redirects to a clean URL; the shell shows', async () => {
    const res = await rig.page.goto(rig.boardUrl);
    assert.equal(res?.status(), 200);
    assert.equal(rig.page.url(), `${rig.base}/`, 'the token left the address bar');
    const cookies = await rig.context.cookies(rig.base);
    const port = new URL(rig.base).port;
    const cookie = cookies.find((c) => c.name === `muster_token_${port}`);
    assert.ok(cookie, 'cookie set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    await rig.page.getByTestId('connection').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
    const html = await rig.page.content();
    assert.ok(!html.includes(rig.token), 'the token never appears in the page');
  });

  it('sessions from the fake Claude home appear; titles render as text', async () => {
    const live = rig.page.locator(`tr[data-key="claude:${LIVE.id}"]`);
    await live.waitFor({ timeout: 10_000 });
    assert.equal(await live.getAttribute('data-status'), 'working');
    const dormant = rig.page.locator(`tr[data-key="claude:${DORMANT.id}"]`);
    await dormant.waitFor();
    assert.match((await dormant.locator('.c-title').textContent()) ?? '', /Fix the <b>pricing<\/b> page/);
    assert.equal(await rig.page.locator('.c-title b').count(), 0, 'no HTML from a title');
    await screenshot(rig.page, 'list-light');
  });

  it('a status change written to the registry shows on the page within 1 s', async () => {
    const t0 = Date.now();
    writeRegistry(rig.claudeHome, { ...LIVE, pid: claude.pid, status: 'waiting', waitingFor: 'approve Bash: rm -rf build' });
    await rig.page.locator(`tr[data-key="claude:${LIVE.id}"][data-status="waiting"]`).waitFor({ timeout: 5_000 });
    const ms = Date.now() - t0;
    assert.ok(ms < 1000, `status reached the DOM in ${ms} ms`);
    assert.match((await rig.page.getByTestId('tally').textContent()) ?? '', /1 waiting/);
    await rig.page.getByText('approve Bash: rm -rf build').first().waitFor();
  });

  it('filters, search and keyboard navigation open the panel', async () => {
    await rig.page.getByTestId('search').fill('pricing');
    assert.equal(await rig.page.locator('tr.row').count(), 1);
    await rig.page.getByTestId('search').fill('');
    await rig.page.getByLabel('live').selectOption('true');
    assert.equal(await rig.page.locator('tr.row').count(), 1);
    await rig.page.getByLabel('live').selectOption('');
    await rig.page.locator('body').click({ position: { x: 5, y: 500 } });
    await rig.page.keyboard.press('ArrowDown');
    await rig.page.keyboard.press('ArrowUp');
    await rig.page.keyboard.press('Enter');
    const panel = rig.page.getByTestId('session-panel');
    await panel.waitFor();
    assert.equal(await panel.getAttribute('data-key'), `claude:${LIVE.id}`, 'waiting sorts first');
    await panel.getByTestId('goal-slot').waitFor();
    await panel.locator('.msg').first().waitFor();
    assert.match((await panel.getByTestId('tail').textContent()) ?? '', /Wire the board to the hub/);
    await screenshot(rig.page, 'panel-light');
  });

  it('dark scheme', async () => {
    await rig.page.emulateMedia({ colorScheme: 'dark' });
    await waitInPage(rig.page, "document.documentElement.dataset.theme === 'dark'");
    await screenshot(rig.page, 'panel-dark');
    await rig.page.keyboard.press('Escape');
    await screenshot(rig.page, 'list-dark');
  });

  it('shows when the connection is lost', async () => {
    rig.child.kill('SIGTERM');
    await rig.page.getByTestId('connection').filter({ hasText: 'lost' }).waitFor({ timeout: 10_000 });
  });

  it('no request left 127.0.0.1', () => {
    assert.ok(rig.requests.length > 3);
    assert.deepEqual(foreignRequests(rig.requests, rig.blocked), []);
  });
});
