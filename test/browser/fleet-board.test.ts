// The board of host B in a fleet (issue 19): a session on host A is listed with its host, grouped by
// host then repo, filtered by host, arrives live over B's SSE, and its panel says where it runs (focus
// is A's). Needs PostgreSQL's binaries (a throwaway cluster, test/fleet/pg-cluster.ts) and chromium.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, waitInPage, writeClaudeSession } from './browser-kit.ts';
import { pgMissing, startCluster, type PgCluster } from '../fleet/pg-cluster.ts';
import { startHost, type Host } from '../fleet/fleet-kit.ts';

const ON_A = 'a0a0a0a0-0000-4000-8000-00000000000a';
const LATER_A = 'a0a0a0a0-0000-4000-8000-00000000000b';
const ON_B = 'b0b0b0b0-0000-4000-8000-00000000000b';
const skip = pgMissing();

describe('board: every host of the fleet', { skip: skip ?? false }, () => {
  let pg: PgCluster;
  let A: Host;
  let B: Host;
  let context: BrowserContext;
  let profile = '';
  let page: Page;

  before(async () => {
    pg = await startCluster();
    A = await startHost('A', { join: pg.url });
    B = await startHost('B', { join: pg.url });
    writeClaudeSession(A.claudeHome, { id: ON_A, cwd: '/srv/api', title: 'refactor the API on A' });
    writeClaudeSession(B.claudeHome, { id: ON_B, cwd: '/srv/web', title: 'polish the board on B' });
    ({ context, profile } = await launchBrowser());
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${B.base}/?token=${B.token}`);
    await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
  });
  after(async () => {
    await context?.close().catch(() => {});
    for (const h of [A, B]) await h?.stop().catch(() => {});
    pg?.destroy();
    for (const h of [A, B]) h?.cleanup();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('lists A\'s session on B\'s board with host "A", grouped by host then repo', async () => {
    const row = page.locator(`tr[data-key="claude:${ON_A}"]`);
    await row.waitFor({ timeout: 15_000 });
    assert.equal(await row.getAttribute('data-host'), 'A');
    assert.equal((await row.locator('td.c-host').textContent())?.trim(), 'A');
    assert.equal(await page.locator(`tr[data-key="claude:${ON_B}"]`).getAttribute('data-host'), 'B');
    // Host headers: this host first, then the others by name; a repo header under each.
    const groups = await page.getByTestId('host-group').evaluateAll((els) => els.map((e) => e.getAttribute('data-host')));
    assert.deepEqual(groups, ['B', 'A']);
    const order = await page.locator('tbody tr').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? e.getAttribute('data-key')).filter(Boolean));
    assert.deepEqual(order, ['host-group', 'repo-group', `claude:${ON_B}`, 'host-group', 'repo-group', `claude:${ON_A}`]);
    await page.getByTestId('fleet').filter({ hasText: 'fleet · B + 1 host' }).waitFor();
    await screenshot(page, 'fleet-board');
  });

  it('a session appearing on A arrives on B\'s board live, and the host filter keeps one host', async () => {
    writeClaudeSession(A.claudeHome, { id: LATER_A, cwd: '/srv/api', title: 'a new session on A' });
    await page.locator(`tr[data-key="claude:${LATER_A}"][data-host="A"]`).waitFor({ timeout: 15_000 });
    await page.getByTestId('host-filter').selectOption('A');
    await waitInPage(page, `document.querySelectorAll('tr.row[data-host="B"]').length === 0 && document.querySelectorAll('tr.row[data-host="A"]').length === 2`);
    await page.getByTestId('host-filter').selectOption('');
    await waitInPage(page, `document.querySelectorAll('tr.row').length === 3`);
  });

  it('the panel of A\'s session says where it runs; focus is A\'s alone', async () => {
    await page.locator(`tr[data-key="claude:${ON_A}"]`).click();
    const panel = page.locator(`[data-testid="session-panel"][data-key="claude:${ON_A}"]`);
    await panel.waitFor();
    assert.match((await panel.getByTestId('host-note').textContent()) ?? '', /On host A/);
    assert.equal(await panel.getByRole('button', { name: 'Focus' }).isDisabled(), true);
  });
});
