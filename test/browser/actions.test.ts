// Actions from the session panel against real processes (issue 5): end a
// live session (its process gets the clean signal and exits), resume a dormant one into a new pane
// of a private tmux server, focus a live one running in that tmux.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshot, spawnFakeClaude, startBoard, writeClaudeSession, type BoardRig } from './browser-kit.ts';
import { isAlive, sleep } from '../e2e/kit.ts';

const ENDME = { id: '40437031-5c17-43a7-8062-c5f8980812c9', title: 'End me' };
const DORMANT = { id: '2e0e7aa2-3d62-481c-8a50-166cd0ac192f', title: 'Resume me' };
const INTMUX = { id: '7d2f4c1e-0b7a-4e55-9a51-3f7c2b8e9d10', title: 'Focus me' };

describe('board: actions from the panel', () => {
  let rig: BoardRig;
  let claude: ChildProcess;
  const dir = mkdtempSync(join(tmpdir(), 'muster-actions-'));
  const sock = join(dir, 'tmux.sock');
  const tmux = (...args: string[]) => execFileSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' }).trim();
  const open = async (id: string) => {
    await rig.page.locator(`tr[data-key="claude:${id}"]`).click();
    const panel = rig.page.locator(`[data-testid="session-panel"][data-key="claude:${id}"]`);
    await panel.waitFor();
    return panel;
  };

  before(async () => {
    claude = spawnFakeClaude();
    tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'board', '-x', '120', '-y', '30');
    // `claude` is not installed here: the resumed pane's command exits at once; keep the pane to count it.
    tmux('set-option', '-g', 'remain-on-exit', 'on');
    // A "Claude" inside a tmux pane: argv[0] claude, so the source recognises it.
    tmux('new-window', '-d', '-t', 'board', `exec -a claude ${process.execPath} -e "setInterval(() => {}, 1000)"`);
    await sleep(300);
    const panePid = Number(tmux('list-panes', '-a', '-F', '#{pane_pid} #{pane_current_command}').split('\n').map((l) => l.split(' ')).find((p) => p[1] !== 'bash' && p[1] !== 'sh')?.[0]);
    rig = await startBoard({
      env: { MUSTER_TMUX_SOCKET: sock },
      prepare: (home) => {
        writeClaudeSession(home, { ...ENDME, cwd: dir, pid: claude.pid, status: 'busy' });
        writeClaudeSession(home, { ...DORMANT, cwd: dir, ts: '2026-11-29T10:00:00.000Z' });
        if (panePid > 0) writeClaudeSession(home, { ...INTMUX, cwd: dir, pid: panePid, status: 'idle' });
      },
    });
    await rig.page.goto(rig.boardUrl);
    await rig.page.getByTestId('connection').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
  });
  after(async () => {
    claude.kill('SIGKILL');
    try {
      tmux('kill-server');
    } catch {}
    await rig?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('end asks first, then ends the live process with its clean signal', async () => {
    const panel = await open(ENDME.id);
    await panel.getByRole('button', { name: 'End…' }).click();
    await panel.getByText('End this session?').waitFor();
    assert.ok(isAlive(claude.pid as number), 'nothing happens before the confirmation');
    await panel.getByRole('button', { name: 'Yes, end it' }).click();
    const outcome = panel.getByTestId('action-outcome');
    await outcome.waitFor();
    assert.match((await outcome.textContent()) ?? '', /^Ended/);
    const until = Date.now() + 5000;
    while (isAlive(claude.pid as number) && claude.exitCode === null && Date.now() < until) await sleep(50);
    assert.equal(claude.signalCode ?? claude.exitCode, 0, 'the process exited on SIGTERM');
    await rig.page.locator(`tr[data-key="claude:${ENDME.id}"][data-status="ended"]`).waitFor({ timeout: 5000 });
  });

  it('resume opens the dormant session in a new tmux pane', async () => {
    const before = tmux('list-panes', '-a').split('\n').length;
    const panel = await open(DORMANT.id);
    await panel.getByRole('button', { name: 'Resume' }).click();
    const outcome = panel.getByTestId('action-outcome');
    await outcome.waitFor();
    assert.match((await outcome.textContent()) ?? '', /Resumed in a new pane/);
    assert.equal(tmux('list-panes', '-a').split('\n').length, before + 1);
    await screenshot(rig.page, 'panel-resumed-light');
  });

  it('focus answers focused or the precise reason', async () => {
    const panel = await open(INTMUX.id);
    await panel.getByRole('button', { name: 'Focus' }).click();
    const outcome = panel.getByTestId('action-outcome');
    await outcome.waitFor();
    const text = (await outcome.textContent()) ?? '';
    assert.doesNotMatch(text, /no focus action|Could not reach/);
    assert.ok(text.length > 5, text);
  });
});
