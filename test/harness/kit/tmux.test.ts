import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startTmux } from './tmux.ts';

test('tmux: a pane runs argv with exactly the given env and cwd, takes keys, is captured and reaped', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-tmux-'));
  const tmux = await startTmux(root);
  try {
    // The shell lingers after its last line: one CI run saw the pane marked dead with that line never
    // on its screen (tmux took the exit before the last output, under load), `got:` and all.
    const script = 'echo "ready $MARK $(pwd) home=${HOME:-unset}"; read line; echo "got:$line"; sleep 0.3';
    const pane = await tmux.newPane(['sh', '-c', script], { cwd: root, env: { PATH: process.env['PATH'], MARK: 'm-42' } });
    assert.match(pane.id, /^%\d+$/);
    assert.ok(pane.pid > 0);
    process.kill(pane.pid, 0);
    await tmux.waitForText(pane.id, new RegExp(`ready m-42 ${root} home=unset`), 5000);
    assert.equal(await tmux.isDead(pane.id), false);
    await tmux.sendKeys(pane.id, 'hello world', { literal: true });
    await tmux.sendKeys(pane.id, 'Enter');
    await tmux.waitForText(pane.id, /got:hello world/, 5000);
    const deadline = Date.now() + 5000;
    while (!(await tmux.isDead(pane.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await tmux.isDead(pane.id), true, 'remain-on-exit keeps the dead pane for capture');
    assert.match(await tmux.capture(pane.id), /got:hello world/);
    await assert.rejects(tmux.waitForText(pane.id, /never printed/, 300), /not seen within 300 ms/);
  } finally {
    await tmux.kill();
    await tmux.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
  assert.ok(!fs.existsSync(tmux.socket));
});

test('tmux: kill() returns only after the panes\' processes have exited', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-tmux-'));
  const tmux = await startTmux(root);
  let pid = 0;
  try {
    // The shell ignores nothing; SIGHUP from kill-server ends it, but only after a short trap delay.
    const pane = await tmux.newPane(['sh', '-c', 'trap "sleep 0.5; exit 0" HUP; echo up; while :; do sleep 0.1; done'], { cwd: root, env: { PATH: process.env['PATH'] } });
    pid = pane.pid;
    await tmux.waitForText(pane.id, /up/, 5000);
  } finally {
    await tmux.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
  assert.throws(() => process.kill(pid, 0), /ESRCH/, 'pane process gone when kill() resolves');
});
