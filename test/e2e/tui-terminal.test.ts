// The TUI and its terminal (issue 10, Build "Works in 80×24 and scales up; resizes cleanly; never
// corrupts the terminal on exit or crash; respects NO_COLOR"): a real tmux pane at 80×24 under
// NO_COLOR, resized to 132×40, then killed with SIGTERM.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, envFor, sleep, startServe, tempHome, waitExit } from './kit.ts';
import { startTmux, type Pane, type Tmux } from '../harness/kit/tmux.ts';
import { userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const ID = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';

describe('TUI terminal handling (real tmux pane)', () => {
  const t = tempHome('muster-e2e-tui-term-');
  let tmux: Tmux;
  let daemon: ChildProcess;
  let pane: Pane;
  const tmuxCmd = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile('tmux', ['-S', tmux.socket, ...args], { timeout: 5000, encoding: 'utf8' }, (e, out, err) => (e ? reject(new Error(err || e.message)) : resolve(out))));
  const styled = () => tmuxCmd(['capture-pane', '-p', '-e', '-t', pane.id]);
  const resize = async (x: number, y: number) => {
    await tmuxCmd(['resize-window', '-t', pane.id, '-x', String(x), '-y', String(y)]);
  };

  before(async () => {
    writeTranscript(join(t.home, '.claude'), ID, [userLine('a dormant task with a long title that needs cutting at eighty columns, surely', { sessionId: ID, cwd: '/work/app' })], '/work/app');
    const env = envFor(t.home);
    daemon = (await startServe(env)).child;
    tmux = await startTmux(join(t.home, 'tmux'));
    pane = await tmux.newPane(['sh', '-c', '"$0" "$1"; echo "muster exited $?"; exec sleep 60', process.execPath, BIN], { cwd: t.home, env: { ...env, TERM: 'xterm-256color', NO_COLOR: '1' } });
    await resize(80, 24);
  });

  after(async () => {
    await tmux?.kill();
    daemon?.kill('SIGTERM');
    if (daemon) await waitExit(daemon);
    t.cleanup();
  });

  it('80×24 under NO_COLOR: a full frame, no line wider than the pane, no colour codes', async () => {
    const text = await tmux.waitForText(pane.id, /a dormant task[\s\S]*\?:keys/, 15_000);
    const lines = text.split('\n');
    assert.ok(lines.every((l) => [...l].length <= 80), 'no line wraps');
    assert.match(lines[0]!, /^ muster .*● live\s*$/);
    assert.ok(lines.some((l) => l.includes('…')), 'the long title is cut, not wrapped');
    const raw = await styled();
    // tmux writes its own resets (39/49); a colour would be 30–37, 90–97 or 38;…
    // eslint-disable-next-line no-control-regex -- looking for SGR escapes is the point
    const colour = /\u001b\[(?:\d+;)*(3[0-7]|9[0-7]|38)[;m]/.exec(raw);
    assert.equal(colour, null, `no foreground colour under NO_COLOR: ${JSON.stringify(colour?.[0])}`);
  });

  it('a resize redraws the whole frame at the new size', async () => {
    await resize(132, 40);
    const text = await tmux.waitForText(pane.id, /^ muster .{100,}● live/m, 5000);
    const lines = text.split('\n');
    assert.ok(lines.every((l) => [...l].length <= 132));
    assert.ok(lines.findIndex((l) => l.includes('?:keys')) >= 38, 'the status line moved to the new bottom');
  });

  it('SIGTERM restores the terminal before exiting', async () => {
    const children = readFileSync(`/proc/${pane.pid}/task/${pane.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    const node = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('muster.js'));
    assert.ok(node, 'the TUI process under the shell');
    process.kill(node, 'SIGTERM');
    await tmux.waitForText(pane.id, /muster exited 143/, 5000);
    await sleep(100);
    const [alt, cursor] = (await tmuxCmd(['display-message', '-p', '-t', pane.id, '#{alternate_on} #{cursor_flag}'])).trim().split(' ');
    assert.deepEqual({ alt, cursor }, { alt: '0', cursor: '1' });
  });
});
