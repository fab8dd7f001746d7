// Goals and pages on the board in chromium (issue 9 on the board, issue 7 on the character): a
// goal set from the session panel is the goal the API lists, shown on the row, paused, resumed
// from elsewhere (live through SSE) and cleared; an agent's page shows on its character in the list
// and on the canvas, is answered there (the waiting MCP call gets the choice's 0-based index), and
// the inbox count follows opened, answered and cancelled pages.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectMcp } from '../e2e/pager-kit.ts';
import { envFor, runCli } from '../e2e/kit.ts';
import { screenshot, spawnFakeClaude, startBoard, waitInPage, writeClaudeSession, type BoardRig, type FakeSession } from './browser-kit.ts';

const LIVE: FakeSession = { id: '5b1d7c52-8a43-4f0e-9c6d-2a7e4b9f3c18', cwd: '/home/dev/muster', title: 'Ship the goal panel' };
const OTHER: FakeSession = { id: '9e3a1f64-2b7c-4d85-a1e0-6f4c8d2b7a93', cwd: '/home/dev/website', title: 'Tidy the pricing page', ts: '2026-11-29T10:00:00.000Z' };

interface GoalJson { id: string; sessionId: string; objective: string; status: string; tokenBudget: number | null; maxTurns: number }

describe('board: goals and pages in chromium', () => {
  let rig: BoardRig;
  let claude: ChildProcess;
  let mcp: Client;
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${rig.base}/api${path}`, { method, headers: { authorization: `Bearer ${rig.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };
  const row = () => rig.page.locator(`tr[data-key="claude:${LIVE.id}"]`);
  const panel = () => rig.page.getByTestId('session-panel');
  const inboxCount = () => rig.page.getByTestId('inbox-count');
  const pendingIds = async () => ((await api('GET', '/pages?status=pending')).json.pages as { id: string }[]).map((p) => p.id);

  before(async () => {
    claude = spawnFakeClaude();
    rig = await startBoard({
      prepare: (home) => {
        writeClaudeSession(home, { ...LIVE, pid: claude.pid, status: 'busy' });
        writeClaudeSession(home, OTHER);
      },
    });
    // The live session reports its turns (Muster's Claude hooks installed), so a goal can drive it:
    // without them the board refuses the goal (goal_not_drivable), as test/e2e covers.
    const hooks = await runCli(['hooks', 'install', '--harness', 'claude'], envFor(rig.home, { CLAUDE_CONFIG_DIR: rig.claudeHome }));
    assert.equal(hooks.code, 0, hooks.stderr);
    const s = await api('POST', '/settings', { notifyDesktop: false, askWaitSeconds: 60 });
    assert.equal(s.status, 200, JSON.stringify(s.json));
    mcp = await connectMcp({ mcpUrl: `${rig.base}/mcp`, token: rig.token }, { 'x-muster-session-id': LIVE.id, 'x-muster-harness': 'claude' });
    await rig.page.goto(rig.boardUrl);
    await rig.page.getByTestId('connection').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
    await row().waitFor({ timeout: 10_000 });
  });
  after(async () => {
    await mcp?.close().catch(() => undefined);
    claude?.kill('SIGKILL');
    await rig?.stop();
  });

  it('a goal set from the panel is the goal GET /api/goals lists, and the row wears it', async () => {
    await row().click();
    const form = panel().getByTestId('goal-form');
    await form.waitFor();
    await form.getByLabel('objective').fill('Make the board pass its browser tests');
    await form.getByLabel('token budget').fill('200000');
    await form.getByLabel('max turns').fill('12');
    await form.getByRole('button', { name: 'Set goal' }).click();
    await panel().locator('[data-testid="goal"][data-goal-status="active"], [data-testid="goal-form"] .error').first().waitFor({ timeout: 5000 });
    assert.equal(await form.locator('.error').count(), 0, `the daemon refused the goal: ${await form.locator('.error').textContent().catch(() => '')}`);
    const listed = await api('GET', '/goals');
    const goals = listed.json.goals as GoalJson[];
    assert.equal(goals?.length, 1, JSON.stringify(listed.json));
    assert.deepEqual([goals[0]?.sessionId, goals[0]?.objective, goals[0]?.status, goals[0]?.tokenBudget, goals[0]?.maxTurns], [LIVE.id, 'Make the board pass its browser tests', 'active', 200000, 12]);
    const badge = row().getByTestId('goal-badge');
    await badge.waitFor();
    assert.match((await badge.textContent()) ?? '', /0\/12/);
    await screenshot(rig.page, 'goal-panel-light');
  });

  it('pause from the panel; a resume from elsewhere reaches the panel through SSE; clear removes it', async () => {
    await panel().getByRole('button', { name: 'Pause' }).click();
    await panel().locator('[data-testid="goal"][data-goal-status="paused"]').waitFor({ timeout: 5000 });
    assert.equal(((await api('GET', `/goals/${LIVE.id}`)).json.goal as GoalJson).status, 'paused');
    const r = await api('POST', `/goals/${LIVE.id}/resume`, {});
    assert.equal(r.status, 200, JSON.stringify(r.json));
    await panel().locator('[data-testid="goal"][data-goal-status="active"]').waitFor({ timeout: 5000 });
    await panel().getByRole('button', { name: 'Clear goal' }).click();
    await panel().getByTestId('goal-form').waitFor({ timeout: 5000 });
    assert.deepEqual((await api('GET', '/goals')).json.goals, []);
    assert.equal(await row().getByTestId('goal-badge').count(), 0);
    await rig.page.keyboard.press('Escape');
  });

  it('a page shows on the asking character in the list and is answered there with its choice index', async () => {
    const asking = callTool(mcp, 'ask_operator', { question: 'Merge the goal panel now?', choices: ['merge it', 'wait for review'] }, { timeout: 60_000 });
    const bubble = row().getByTestId('character-page');
    await bubble.waitFor({ timeout: 5000 });
    await waitInPage(rig.page, `document.querySelector('[data-testid="inbox-count"]')?.textContent === '1'`);
    await screenshot(rig.page, 'page-list-light');
    await bubble.click();
    const pop = rig.page.getByTestId('page-pop');
    await pop.getByText('Merge the goal panel now?').waitFor();
    await rig.page.emulateMedia({ colorScheme: 'dark' });
    await waitInPage(rig.page, "document.documentElement.dataset.theme === 'dark'");
    await screenshot(rig.page, 'page-list-dark');
    await rig.page.emulateMedia({ colorScheme: 'light' });
    await pop.getByRole('button', { name: 'wait for review' }).click();
    const got = await asking;
    assert.deepEqual([got.status, got.answer, got.choice], ['answered', 'wait for review', 1]);
    const page = (await api('GET', `/pages/${got.pageId}`)).json.page as { status: string; answer: { choice: number; by: string } };
    assert.ok(['answered', 'delivered'].includes(page.status), page.status);
    assert.deepEqual([page.answer.choice, page.answer.by], [1, 'operator']);
    await bubble.waitFor({ state: 'detached', timeout: 5000 });
    assert.equal(await inboxCount().textContent(), '0');
  });

  it('the inbox count follows a page the agent cancels', async () => {
    const asking = callTool(mcp, 'ask_operator', { question: 'Which branch?' }, { timeout: 60_000 });
    await waitInPage(rig.page, `document.querySelector('[data-testid="inbox-count"]')?.textContent === '1'`);
    const [id] = await pendingIds();
    assert.ok(id);
    const c = await callTool(mcp, 'cancel_page', { pageId: id });
    assert.equal(c.status, 'cancelled');
    await waitInPage(rig.page, `document.querySelector('[data-testid="inbox-count"]')?.textContent === '0'`);
    assert.equal(await row().getByTestId('character-page').count(), 0);
    await asking.catch(() => undefined);
  });

  it('on the canvas, the character shows the question and a free answer reaches the agent', async () => {
    const asking = callTool(mcp, 'ask_operator', { question: 'Name for the release?' }, { timeout: 60_000 });
    await rig.page.getByTestId('view-canvas').click();
    const ch = rig.page.locator(`[data-testid="character"][data-key="claude:${LIVE.id}"]`);
    await ch.waitFor({ timeout: 60_000 });
    const bubble = ch.getByTestId('character-page');
    await bubble.waitFor({ timeout: 5000 });
    assert.match((await bubble.textContent()) ?? '', /Name for the release\?/);
    await screenshot(rig.page, 'page-canvas-light');
    await bubble.click();
    const pop = rig.page.getByTestId('page-pop');
    await pop.getByLabel('answer').fill('Muster 0.2 "Board"');
    await pop.getByRole('button', { name: 'Send' }).click();
    const got = await asking;
    assert.deepEqual([got.status, got.answer, got.choice], ['answered', 'Muster 0.2 "Board"', null]);
    await bubble.waitFor({ state: 'detached', timeout: 5000 });
    assert.equal(await rig.page.getByTestId('session-panel').count(), 0, 'answering did not open the panel');
  });
});
