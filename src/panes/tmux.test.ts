import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPaneContract } from './contract.test-support.ts';
import { createTmuxPanes, parsePaneLines } from './tmux.ts';
import { resolveTmuxSocket } from './tmux-socket.ts';
import { readProcTree } from './proc-tree.ts';

const tmux = (socket: string, args: string[]): Promise<string> =>
  new Promise((resolve, reject) => execFile('tmux', ['-S', socket, ...args], { timeout: 5000, encoding: 'utf8' }, (e, out, err) => (e ? reject(new Error(err || e.message)) : resolve(out))));

const waitFor = async (what: string, pred: () => Promise<boolean>, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const READER = [
  'import os, sys, tty',
  'tty.setraw(0)',
  "os.write(1, b'\\x1b[?2004h')",
  "out = open(sys.argv[1], 'wb')",
  'while True:',
  '    b = os.read(0, 65536)',
  '    if not b: break',
  '    out.write(b); out.flush()',
].join('\n');

/** The bytes a raw-mode application got: `ESC[200~ … ESC[201~` (tmux sends newlines as CR), then CR = Enter. */
function parseTyped(raw: string): { text: string; enter: boolean } {
  // eslint-disable-next-line no-control-regex -- the paste brackets are escape sequences
  const m = /^\x1b\[200~([\s\S]*)\x1b\[201~(\r?)$/.exec(raw);
  return m ? { text: (m[1] ?? '').replace(/\r/g, '\n'), enter: m[2] === '\r' } : { text: raw, enter: false };
}

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
    reader: (out) => ({
      // Raw mode and bracketed paste on, as an agent TUI sets its terminal; then it records every byte.
      argv: ['python3', '-c', READER, out],
      ready: (paneId) => waitFor(`the reader in ${paneId}`, async () => existsSync(out)),
    }),
    async received(_paneId, out) {
      return parseTyped(existsSync(out) ? readFileSync(out, 'utf8') : '');
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
  const panes = parsePaneLines('%1\t100\t7\tbash\t/home\twin\there\nnot a pane\n%x\t1\t7\t\t\t\n', '/s');
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

test('focus is one tmux exec: select, switch the current client, name it; no client and no pane are told apart', async () => {
  const calls: string[][] = [];
  let answer: () => string = () => { throw new Error('tmux switch-client: no current client'); };
  const m = createTmuxPanes({ socket: '/nowhere', exec: async (args) => (calls.push(args), answer()) });
  assert.deepEqual(await m.focus('%3'), { outcome: 'no_client', pane: { manager: 'tmux', id: '%3', socket: '/nowhere' }, hint: 'tmux -S /nowhere attach -t %3' });
  assert.deepEqual(calls, [['select-window', '-t', '%3', ';', 'select-pane', '-t', '%3', ';', 'switch-client', '-t', '%3', ';', 'display-message', '-p', '#{client_name}']]);
  answer = () => '/dev/pts/2\n';
  assert.deepEqual(await m.focus('%3'), { outcome: 'focused', pane: { manager: 'tmux', id: '%3', socket: '/nowhere' }, client: '/dev/pts/2' });
  answer = () => { throw new Error("tmux select-window: can't find pane: %3"); };
  assert.equal((await m.focus('%3')).outcome, 'pane_not_found');
  assert.equal(calls.length, 3);
});

test('focus refuses a pane id that is not %N without running tmux', async () => {
  const calls: string[][] = [];
  const m = createTmuxPanes({ socket: '/nowhere', exec: async (args) => (calls.push(args), '') });
  assert.equal((await m.focus('$(touch /tmp/x)')).outcome, 'pane_not_found');
  assert.deepEqual(calls, []);
});

test('real server: its pane processes are tty-owning children, so a rebuild reuses the listing until a pane comes or goes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'muster-tmux-cache-'));
  const socket = join(dir, 'tmux.sock');
  try {
    await tmux(socket, ['-f', '/dev/null', 'new-session', '-d', '-s', 'w', 'sleep', '300']);
    let lists = 0;
    const m = createTmuxPanes({ socket, exec: (args) => (args[0] === 'list-panes' && lists++, tmux(socket, args)) });
    // The first pane's process becomes the server's tty-owning child a moment after new-session returns
    // (later under load), and the listing is rebuilt once it is: wait until a call rebuilds nothing.
    await waitFor('the first listing settled', async () => {
      const n = lists;
      assert.equal((await m.listPanes(readProcTree())).length, 1);
      return lists === n && n > 0;
    });
    const settled = lists;
    assert.equal((await m.listPanes(readProcTree())).length, 1);
    assert.equal((await m.listPanes(readProcTree())).length, 1);
    assert.equal(lists, settled, 'an unchanged server: the listing is reused');
    const id = (await tmux(socket, ['new-window', '-d', '-P', '-F', '#{pane_id}', 'sleep', '301'])).trim();
    // The pane's process becomes a tty-owning child of the server a moment after new-window returns
    // (sooner or later under load): the listing is rebuilt once it is there, not before.
    await waitFor('the new pane listed', async () => (await m.listPanes(readProcTree())).some((p) => p.ref.id === id));
    const afterNew = lists;
    assert.ok(afterNew >= 2, 'a new pane process rebuilt the listing');
    assert.equal((await m.listPanes(readProcTree())).length, 2);
    assert.equal(lists, afterNew, 'and the next call reuses it');
    await tmux(socket, ['kill-pane', '-t', id]);
    await waitFor('the pane process gone', async () => !(await m.listPanes(readProcTree())).some((p) => p.ref.id === id));
    assert.ok(lists > afterNew, 'a pane process gone rebuilt it again');
  } finally {
    await tmux(socket, ['kill-server']).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
});

test('real server, two terminals: focus switches the one the operator typed in last', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'muster-tmux-2c-'));
  const socket = join(dir, 'tmux.sock');
  const clients: ChildProcess[] = [];
  try {
    await tmux(socket, ['-f', '/dev/null', 'new-session', '-d', '-s', 'left', '-x', '80', '-y', '24', 'sleep', '3600']);
    await tmux(socket, ['new-session', '-d', '-s', 'right', '-x', '80', '-y', '24', 'sleep', '3600']);
    const target = (await tmux(socket, ['new-window', '-d', '-P', '-F', '#{pane_id}', '-t', '=left:', 'sleep', '3600'])).trim();
    const attach = (session: string): ChildProcess => {
      const c = spawn('script', ['-qfc', `tmux -S ${socket} attach -t =${session}`, '/dev/null'], { stdio: ['pipe', 'ignore', 'ignore'], env: { ...process.env, TERM: 'xterm' } });
      clients.push(c);
      return c;
    };
    const clientOn = async (session: string): Promise<string> => {
      const lines = (await tmux(socket, ['list-clients', '-F', '#{client_session} #{client_name}'])).trim().split('\n');
      return lines.find((l) => l.startsWith(`${session} `))?.split(' ')[1] ?? '';
    };
    const left = attach('left');
    const right = attach('right');
    await waitFor('two clients', async () => (await clientOn('left')) !== '' && (await clientOn('right')) !== '');
    const [leftName, rightName] = [await clientOn('left'), await clientOn('right')];
    const m = createTmuxPanes({ socket });
    // Key input is what tmux counts as activity; a key to `sleep` does nothing else. Activity times
    // have one-second resolution in tmux's formats but are compared exactly inside the server.
    for (const [typist, name] of [[right, rightName], [left, leftName], [right, rightName]] as const) {
      await new Promise((r) => setTimeout(r, 50));
      typist.stdin?.write('x');
      await new Promise((r) => setTimeout(r, 150));
      const r = await m.focus(target);
      assert.deepEqual(r, { outcome: 'focused', pane: { manager: 'tmux', id: target, socket }, client: name });
      const shown = (await tmux(socket, ['list-clients', '-F', '#{client_name} #{pane_id}'])).trim().split('\n');
      assert.ok(shown.includes(`${name} ${target}`), `${name} shows ${target}: ${shown.join(' | ')}`);
      // Back where it was, so the next round starts from the operator's own window again.
      await tmux(socket, ['switch-client', '-c', name, '-t', name === leftName ? '=left:0' : '=right:0']);
    }
  } finally {
    for (const c of clients) c.kill('SIGKILL');
    await tmux(socket, ['kill-server']).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
});
