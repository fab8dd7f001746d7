// The board's New session form (issue 21, point 1): chromium fills it and a real pi (the pinned CLI from the
// harness tier's cache, against the fake model) starts through the wrapper in a private tmux server; the
// session appears on the list, its panel opens (Focus it), and it stands on the canvas. The directory is
// one Muster already knows: a dormant Claude session's, which the form offers first.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshot, startBoard, writeClaudeSession, type BoardRig } from './browser-kit.ts';
import { keywordHandler, lastUserText, startFakeModel, type FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, type HarnessEnv } from '../harness/kit/index.ts';

const KNOWN = { id: '5b7f1d2e-8c4a-4f6b-9e3d-2a1c0b9f8e7d', title: 'an older Claude session here', ts: '2026-11-29T10:00:00.000Z' };

describe('board: the New session form', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'muster-browser-new-')));
  const sock = join(root, 'tmux.sock');
  let rig: BoardRig;
  let model: FakeModel;
  let h: HarnessEnv;

  before(async () => {
    const cli = await ensureHarnessCli('pi');
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    h = harnessEnv('pi', { root, modelUrl: model.url, binDir: cli.binDir, cwd: join(root, 'projects', 'web-app') });
    writeFileSync(join(h.configDir, 'settings.json'), JSON.stringify({ defaultProvider: 'fakeoai', defaultModel: 'fake-model' }));
    const tmuxEnv: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm' };
    delete tmuxEnv.TMUX;
    execFileSync('tmux', ['-S', sock, '-f', '/dev/null', 'new-session', '-d', '-s', 'work', 'sleep', '3600'], { env: tmuxEnv });
    // The daemon's environment is what the started harness runs with: pi's home, its offline switches, its PATH.
    const pi = Object.fromEntries(Object.entries(h.env).filter(([k]) => k === 'PATH' || k.startsWith('PI_')));
    rig = await startBoard({ env: { ...pi, MUSTER_TMUX_SOCKET: sock }, prepare: (claudeHome) => writeClaudeSession(claudeHome, { ...KNOWN, cwd: h.cwd }) });
    await rig.page.goto(rig.boardUrl);
    await rig.page.getByTestId('connection').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
    await rig.page.locator(`tr[data-key="claude:${KNOWN.id}"]`).waitFor({ timeout: 10_000 });
  });
  after(async () => {
    try {
      execFileSync('tmux', ['-S', sock, 'kill-server']);
    } catch {}
    await rig?.stop();
    await model?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('starts a pi session that appears on the list (its panel open) and on the canvas', async () => {
    const { page } = rig;
    await page.getByTestId('open-new-session').click();
    const dialog = page.getByTestId('new-session-dialog');
    await dialog.waitFor();
    assert.equal(await dialog.getByTestId('new-cwd').inputValue(), h.cwd, 'the known directory is offered first');
    assert.ok((await dialog.locator(`#new-session-dirs option[value="${h.cwd}"]`).count()) === 1);
    await dialog.getByTestId('new-harness').selectOption('pi');
    await dialog.getByTestId('new-name').fill('from the board');
    await dialog.getByTestId('new-prompt').fill('hello from the board $(touch pwned)');
    assert.equal(await dialog.getByTestId('new-focus').isChecked(), true);
    await screenshot(page, 'new-session-form');
    await dialog.getByTestId('new-start').click();
    await page.getByTestId('notice').filter({ hasText: 'Started pi in tmux pane' }).waitFor({ timeout: 30_000 });
    assert.equal(await dialog.count(), 0, 'the form closed');

    const row = page.locator('tr[data-key^="pi:"]').filter({ hasText: 'from the board' });
    await row.waitFor({ timeout: 60_000 });
    const key = await row.getAttribute('data-key');
    assert.match(key ?? '', /^pi:[0-9a-f-]{36}$/);
    await page.locator(`[data-testid="session-panel"][data-key="${key}"]`).waitFor({ timeout: 30_000 });
    assert.ok(model.requests.some((r) => lastUserText(r).includes('hello from the board $(touch pwned)')), 'the first prompt reached the model verbatim');
    await screenshot(page, 'new-session-list');

    await page.getByTestId('view-canvas').click();
    await page.locator(`[data-testid="character"][data-key="${key}"]`).waitFor({ timeout: 30_000 });
    await screenshot(page, 'new-session-canvas');
  });

  it('a refusal is shown in the form as the daemon says it (a branch name git refuses)', async () => {
    const { page } = rig;
    await page.getByTestId('view-list').click();
    await page.getByTestId('open-new-session').click();
    const dialog = page.getByTestId('new-session-dialog');
    await dialog.getByTestId('new-harness').selectOption('pi');
    await dialog.getByTestId('new-worktree').fill('bad..branch');
    await dialog.getByTestId('new-start').click();
    await dialog.getByTestId('new-error').filter({ hasText: 'not a valid branch name' }).waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: 'close' }).click();
  });
});
