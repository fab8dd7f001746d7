// The Spend view in chromium (issue 20): its chunk loads only when opened; stacked bars per day for a
// seeded store (Claude transcripts and a Codex rollout on disk); a click on a bar's part narrows the
// list to the sessions that spent in it; a new turn moves today's bar and the header's total without
// a reload.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { screenshot, startBoard, waitInPage, type BoardRig } from './browser-kit.ts';
import { assistantLine, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const A = '40437031-5c17-43a7-8062-c5f8980812c9';
const B = '2e0e7aa2-3d62-481c-8a50-166cd0ac192f';
const C = '7d2f4c1e-0b7a-4e55-9a51-3f7c2b8e9d10';
const T = '01a22b39-94a8-7390-a4d1-3b90055e3b40';
const DAY = 86_400_000;
/** Noon UTC `n` days ago: the same local date in any zone within ±11 h. */
const noon = (n: number): Date => new Date(Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`) - n * DAY);
const day = (n: number): string => noon(n).toISOString().slice(0, 10);
// Today's turns are written an hour before now (never in the future, never yesterday after midnight).
const today = (): string => new Date(Math.max(Date.now() - 3_600_000, Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:30Z`))).toISOString();

function codexRollout(home: string, at: Date): void {
  const dir = join(home, '.codex', 'sessions', '2026', '01', '01');
  mkdirSync(dir, { recursive: true });
  const ts = at.toISOString();
  const usage = { input_tokens: 200_000, cached_input_tokens: 0, output_tokens: 20_000, reasoning_output_tokens: 0, total_tokens: 220_000 };
  const lines = [
    { timestamp: ts, type: 'session_meta', payload: { id: T, timestamp: ts, cwd: '/home/dev/api', originator: 'codex_exec', cli_version: '0.171.0', source: 'exec' } },
    { timestamp: ts, type: 'turn_context', payload: { model: 'gpt-5-codex', cwd: '/home/dev/api' } },
    { timestamp: ts, type: 'event_msg', payload: { type: 'item_completed', item: { type: 'UserMessage', content: [{ type: 'text', text: 'codex work yesterday' }] } } },
    { timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: usage, last_token_usage: usage } } },
  ];
  writeFileSync(join(dir, `rollout-2026-01-01T00-00-00-${T}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

describe('board: the Spend view in chromium', () => {
  let rig: BoardRig;
  let todayFile = '';
  const dayUsd = async (d: string): Promise<number> => Number((await rig.page.locator(`[data-testid="spend-day"][data-day="${d}"]`).getAttribute('data-usd')) ?? 'NaN');

  before(async () => {
    rig = await startBoard({
      prepare: (claudeHome) => {
        // Sonnet 4.5: $3 in, $15 out per million. A: $0.45 two days ago; B: $0.30 yesterday; C: $0.15 today.
        writeTranscript(claudeHome, A, [userLine('refactor the parser', { sessionId: A, cwd: '/home/dev/app', ts: noon(2).toISOString() }), assistantLine({ id: 'msg_a', requestId: 'req_a', sessionId: A, cwd: '/home/dev/app', input: 100_000, output: 10_000, ts: noon(2).toISOString() })], '/home/dev/app');
        writeTranscript(claudeHome, B, [userLine('fix the login bug', { sessionId: B, cwd: '/home/dev/app', ts: noon(1).toISOString() }), assistantLine({ id: 'msg_b', requestId: 'req_b', sessionId: B, cwd: '/home/dev/app', input: 50_000, output: 10_000, ts: noon(1).toISOString() })], '/home/dev/app');
        todayFile = writeTranscript(claudeHome, C, [userLine('write the docs', { sessionId: C, cwd: '/home/dev/app', ts: today() }), assistantLine({ id: 'msg_c', requestId: 'req_c', sessionId: C, cwd: '/home/dev/app', input: 25_000, output: 5_000, ts: today() })], '/home/dev/app');
        codexRollout(join(claudeHome, '..'), noon(1));
      },
    });
    await rig.page.goto(rig.boardUrl);
    await rig.page.getByTestId('connection').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
  });
  after(async () => {
    await rig?.stop();
  });

  it('today\'s running total is in the header; the Spend chunk loads only when the view opens', async () => {
    await rig.page.getByTestId('today-spend').filter({ hasText: '$0.15' }).waitFor({ timeout: 10_000 });
    assert.equal(rig.requests.filter((u) => /spend-view/.test(u)).length, 0, 'nothing of the Spend view before it opens');
    await rig.page.getByTestId('view-spend').click();
    await rig.page.getByTestId('spend-chart').waitFor({ timeout: 10_000 });
    assert.equal(rig.requests.filter((u) => /spend-view/.test(u)).length, 1, 'its chunk, once');
  });

  it('renders the stacked bars of the seeded store, by harness and by model', async () => {
    await waitInPage(rig.page, `document.querySelectorAll('[data-testid="spend-bar"]').length === 4`, 10_000);
    assert.equal(await dayUsd(day(2)), 0.45);
    // Yesterday: Claude $0.30 and Codex (gpt-5-codex: $1.25 in, $10 out per million) $0.45, one bar each.
    const y = rig.page.locator(`[data-testid="spend-bar"][data-day="${day(1)}"]`);
    assert.deepEqual(await y.evaluateAll((els) => els.map((e) => [e.getAttribute('data-key'), Number(e.getAttribute('data-usd'))])), [['codex', 0.45], ['claude', 0.3]]);
    const h = await y.evaluateAll((els) => els.map((e) => Number(e.getAttribute('height'))));
    assert.ok(Math.abs((h[0] ?? 0) / (h[1] ?? 1) - 1.5) < 0.05, `bar heights follow cost: ${h.join(', ')}`);
    assert.match((await rig.page.getByTestId('spend-total').textContent()) ?? '', /\$1\.35/);
    assert.deepEqual(await rig.page.getByTestId('spend-top-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))), [T, A, B, C], 'biggest first (A and the Codex thread tie at $0.45: by id)');
    await rig.page.getByTestId('spend-split').selectOption('model');
    await waitInPage(rig.page, `[...document.querySelectorAll('[data-testid="spend-bar"]')].some((e) => e.getAttribute('data-key') === 'gpt-5-codex')`, 10_000);
    await screenshot(rig.page, 'spend-by-model');
    await rig.page.getByTestId('spend-split').selectOption('harness');
    await waitInPage(rig.page, `[...document.querySelectorAll('[data-testid="spend-bar"]')].some((e) => e.getAttribute('data-key') === 'codex')`, 10_000);
  });

  it('a click on a bar filters the session list to that day and harness', async () => {
    await rig.page.locator(`[data-testid="spend-bar"][data-day="${day(1)}"][data-key="claude"]`).click();
    await rig.page.getByTestId('list-scope').waitFor({ timeout: 10_000 });
    assert.match((await rig.page.getByTestId('list-scope').textContent()) ?? '', new RegExp(`spent on ${day(1)} · claude`));
    assert.deepEqual(await rig.page.locator('tr.row').evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), [`claude:${B}`]);
    await rig.page.getByTestId('list-scope-clear').click();
    await waitInPage(rig.page, `document.querySelectorAll('tr.row').length === 4`, 10_000);
  });

  it('a new turn moves today\'s bar and the header total without a reload', async () => {
    await rig.page.getByTestId('view-spend').click();
    await rig.page.getByTestId('spend-chart').waitFor({ timeout: 10_000 });
    const d = day(0);
    await waitInPage(rig.page, `Number(document.querySelector('[data-testid="spend-day"][data-day="${d}"]')?.getAttribute('data-usd')) === 0.15`, 10_000);
    const navigations: string[] = [];
    rig.page.on('framenavigated', (f) => navigations.push(f.url()));
    appendFileSync(todayFile, `${assistantLine({ id: 'msg_c2', requestId: 'req_c2', sessionId: C, cwd: '/home/dev/app', input: 50_000, output: 10_000, ts: today() })}\n`);
    await waitInPage(rig.page, `Number(document.querySelector('[data-testid="spend-day"][data-day="${d}"]')?.getAttribute('data-usd')) === 0.45`, 15_000);
    await rig.page.getByTestId('today-spend').filter({ hasText: '$0.45' }).waitFor({ timeout: 10_000 });
    assert.equal(await dayUsd(d), 0.45);
    assert.deepEqual(navigations.filter((u) => !u.includes('#')), [], 'no reload');
    await screenshot(rig.page, 'spend-live');
  });
});
