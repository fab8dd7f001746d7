import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPaneContract } from './contract-suite.ts';
import { createTmuxPanes, parsePaneLines } from './tmux.ts';
import { resolveTmuxSocket } from './tmux-socket.ts';

const tmux = (socket: string, args: string[]): Promise<string> =>
  new Promise((resolve, reject) => execFile('tmux', ['-S', socket, ...args], { timeout: 5000, encoding: 'utf8' }, (e, out, err) => (e ? reject(new Error(err || e.message)) : resolve(out))));

const waitFor = async (what: string, pred: () => Promise<boolean>, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

runPaneContract('tmux', async () => {
  const root = mkdtempSync(join(tmpdir(), 'muster-tmux-'));
  const socket = join(root, 'tmux.sock');
  // The operator's own session; Muster's windows go to a separate `muster` session made on demand.
  await tmux(socket, ['-f', '/dev/null', 'new-session', '-d', '-s', 'work', '-x', '120', '-y', '40', 'sleep', '3600']);
  let client: ChildProcess | undefined;
  return {
    manager: createTmuxPanes({ socket }),
    unavailable: createTmuxPanes({ socket: join(root, 'nobody.sock') }),
    missingPaneId: '%9999',
    async focusedPane() {
      const line = (await tmux(socket, ['list-clients', '-F', '#{pane_id}'])).trim().split('\n')[0];
      return line || null;
    },
    async startArgv(paneId) {
      const pid = (await tmux(socket, ['display-message', '-p', '-t', paneId, '#{pane_pid}'])).trim();
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a, i, all) => a !== '' || i < all.length - 1);
    },
    async attachClient() {
      // A headless terminal for a real tmux client: script(1) gives it a pty.
      client = spawn('script', ['-qfc', `tmux -S ${socket} attach -t work`, '/dev/null'], { stdio: 'ignore', env: { ...process.env, TERM: 'xterm' } });
      await waitFor('a client attached', async () => (await tmux(socket, ['list-clients', '-F', '#{client_name}'])).trim() !== '');
    },
    async cleanup() {
      client?.kill('SIGKILL');
      await tmux(socket, ['kill-server']).catch(() => {});
      rmSync(root, { recursive: true, force: true });
    },
  };
});

const root = mkdtempSync(join(tmpdir(), 'muster-tmux-unit-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('the socket comes from TMUX, else tmux\'s default for the uid', () => {
  assert.equal(resolveTmuxSocket({ TMUX: '/tmp/x/sock,123,0' }, 1000), '/tmp/x/sock');
  assert.equal(resolveTmuxSocket({}, 1000), '/tmp/tmux-1000/default');
  assert.equal(resolveTmuxSocket({ TMUX_TMPDIR: '/run/t' }, 7), '/run/t/tmux-7/default');
});

test('list-panes lines parse; junk lines are skipped; a label may hold tabs', () => {
  const panes = parsePaneLines('%1\t100\tbash\t/home\twin\there\nnot a pane\n%x\t1\t\t\t\n', '/s');
  assert.equal(panes.length, 1);
  assert.deepEqual(panes[0], { ref: { manager: 'tmux', id: '%1', socket: '/s' }, shellPid: 100, foregroundPids: [], command: 'bash', cwd: '/home', label: 'win\there' });
});

test('open passes a one-word argv through `env` (tmux would hand a single argument to sh -c)', async () => {
  const calls: string[][] = [];
  const m = createTmuxPanes({ socket: '/nowhere', exec: async (args) => (calls.push(args), args[0] === 'has-session' ? '' : '%5 55\n') });
  const r = await m.open({ cwd: '/tmp', argv: ['claude'], label: 'x\ny' });
  assert.deepEqual(r, { pane: { manager: 'tmux', id: '%5', socket: '/nowhere' }, pid: 55 });
  const win = calls.find((c) => c[0] === 'new-window');
  assert.deepEqual(win, ['new-window', '-t', '=muster:', '-P', '-F', '#{pane_id} #{pane_pid}', '-n', 'x y', '-c', '/tmp', '--', 'env', 'claude']);
});

test('focus refuses a pane id that is not %N without running tmux', async () => {
  const calls: string[][] = [];
  const m = createTmuxPanes({ socket: '/nowhere', exec: async (args) => (calls.push(args), '') });
  assert.equal((await m.focus('$(touch /tmp/x)')).outcome, 'pane_not_found');
  assert.deepEqual(calls, []);
});
