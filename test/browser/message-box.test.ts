// The session panel's message box (issue 21): a message typed on the board reaches a live session
// running in a tmux pane — a stand-in Claude that reads its terminal as an agent TUI does (raw mode,
// bracketed paste) and echoes what it got — verbatim, newlines and shell syntax included; a session
// waiting on a question of its own is refused with the reason, and nothing is typed into it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshot, startBoard, writeClaudeSession, type BoardRig } from './browser-kit.ts';
import { sleep, until } from '../e2e/kit.ts';

const LIVE = { id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d', title: 'Type to me' };
const WAITING = { id: '6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e', title: 'Asking you' };

describe('board: the message box', () => {
  let rig: BoardRig;
  const dir = mkdtempSync(join(tmpdir(), 'muster-message-'));
  const sock = join(dir, 'tmux.sock');
  const marker = join(dir, 'pwned');
  const tmux = (...args: string[]) => execFileSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' }).trim();
  const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
  /** A pane running the stand-in (argv[0] claude); resolves its pid. */
  const agent = async (name: string): Promise<number> => {
    tmux('new-window', '-d', '-t', 'board', '-n', name, `exec -a claude ${python} ${join(dir, 'tui.py')} ${join(dir, `${name}.bytes`)}`);
    await sleep(300);
    return Number(tmux('list-panes', '-a', '-F', '#{window_name} #{pane_pid}').split('\n').find((l) => l.startsWith(`${name} `))?.split(' ')[1]);
  };
  const open = async (id: string) => {
    await rig.page.locator(`tr[data-key="claude:${id}"]`).click();
    const panel = rig.page.locator(`[data-testid="session-panel"][data-key="claude:${id}"]`);
    await panel.waitFor();
    return panel;
  };

  before(async () => {
    // The stand-in TUI: raw mode and bracketed paste on; records every byte and shows what it got.
    writeFileSync(join(dir, 'tui.py'), [
      'import os, sys, tty',
      'tty.setraw(0)',
      "os.write(1, b'\\x1b[?2004hready\\r\\n')",
      "out = open(sys.argv[1], 'wb')",
      'while True:',
      '    b = os.read(0, 65536)',
      '    if not b: break',
      '    out.write(b); out.flush()',
      "    os.write(1, b'got: ' + b.replace(b'\\x1b[200~', b'').replace(b'\\x1b[201~', b' [end]').replace(b'\\r', b'\\r\\n'))",
      '',
    ].join('\n'));
    tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'board', '-x', '120', '-y', '30');
    const livePid = await agent('live');
    const waitingPid = await agent('waiting');
    assert.ok(livePid > 0 && waitingPid > 0, 'the stand-ins run');
    rig = await startBoard({
      env: { MUSTER_TMUX_SOCKET: sock },
      prepare: (home) => {
        writeClaudeSession(home, { ...LIVE, cwd: dir, pid: livePid, status: 'idle' });
        writeClaudeSession(home, { ...WAITING, cwd: dir, pid: waitingPid, status: 'waiting', waitingFor: 'permission prompt' });
      },
    });
    await rig.page.goto(rig.boardUrl);
    await rig.page.getByTestId('connection').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
  });
  after(async () => {
    try {
      tmux('kill-server');
    } catch {}
    await rig?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a message reaches the live session in its pane verbatim, on two lines, and runs nothing', async () => {
    const panel = await open(LIVE.id);
    const box = panel.getByTestId('message-box');
    const text = `please fix it $(touch ${marker})\nand \`touch ${marker}\` too`;
    await box.getByRole('textbox', { name: 'message' }).fill(text);
    await box.getByRole('button', { name: 'Send' }).click();
    const outcome = box.getByTestId('message-outcome');
    await outcome.waitFor();
    assert.match((await outcome.textContent()) ?? '', /^Typed into its pane \(tmux %\d+\)\./);
    assert.equal(await box.getByRole('textbox', { name: 'message' }).inputValue(), '', 'the box is cleared once sent');
    const raw = await until('the stand-in got the paste', () => {
      const f = join(dir, 'live.bytes');
      const b = existsSync(f) ? readFileSync(f, 'utf8') : '';
      return b.endsWith('\r') ? b : undefined;
    });
    assert.equal(raw, `\u001b[200~${text.replace(/\n/g, '\r')}\u001b[201~\r`);
    const screen = tmux('capture-pane', '-p', '-t', '=board:live');
    assert.match(screen, /got: please fix it \$\(touch .*pwned\)\s*\n\s*and `touch .*pwned` too \[end\]/);
    await sleep(300);
    assert.equal(existsSync(marker), false, 'nothing ran the text');
    await screenshot(rig.page, 'message-box-sent');
  });

  it('a session waiting on its own question is refused with the reason; nothing is typed', async () => {
    const panel = await open(WAITING.id);
    const box = panel.getByTestId('message-box');
    await box.getByRole('textbox', { name: 'message' }).fill('1');
    await box.getByRole('textbox', { name: 'message' }).press('Control+Enter');
    const outcome = box.getByTestId('message-outcome');
    await outcome.waitFor();
    assert.match((await outcome.textContent()) ?? '', /^Not sent — busy: .*waiting for you/);
    assert.equal(existsSync(join(dir, 'waiting.bytes')) ? readFileSync(join(dir, 'waiting.bytes'), 'utf8') : '', '');
  });
});
