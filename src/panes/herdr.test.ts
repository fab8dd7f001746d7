/**
 * The herdr adapter against test/fakes/fake-herdr: herdr itself cannot be installed on these
 * machines, so its socket protocol is exercised against a faithful double of it.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeHerdr, writeStaleSocketFile, type FakeHerdr } from '../../test/fakes/fake-herdr/index.ts';
import { runPaneContract } from './contract.test-support.ts';
import { createHerdrPanes } from './herdr.ts';
import { herdrCall, HerdrError } from './herdr-client.ts';
import { resolveHerdrSocket } from './herdr-socket.ts';

const root = mkdtempSync(join(tmpdir(), 'muster-herdr-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const sockPath = () => join(root, `h${++n}.sock`);

runPaneContract('herdr (fake server, protocol 19)', async () => {
  const fake = await startFakeHerdr({ socket: sockPath(), spawnCommands: true });
  return {
    manager: createHerdrPanes({ socket: fake.socket }),
    unavailable: createHerdrPanes({ socket: join(root, 'absent.sock') }),
    missingPaneId: 'w1:p999',
    focusedPane: async () => fake.model.focusedPane,
    startArgv: async (id) => fake.model.panes.get(id)?.command ?? null,
    // The fake records input instead of writing it to a terminal: the text (send_input), then Enter alone (send_keys).
    reader: () => ({ argv: ['sleep', '300'], ready: async () => {} }),
    received: async (id) => {
      const inputs = fake.model.panes.get(id)?.inputs ?? [];
      return { text: inputs.map((i) => i.text ?? '').join(''), enter: inputs.at(-1)?.keys?.join() === 'Enter' && inputs.at(-1)?.text === undefined };
    },
    cleanup: () => fake.close(),
  };
});

async function withFake<T>(fn: (fake: FakeHerdr) => Promise<T>, protocol?: number): Promise<T> {
  const fake = await startFakeHerdr({ socket: sockPath(), protocol });
  try {
    return await fn(fake);
  } finally {
    await fake.close();
  }
}

test('the socket is resolved like herdr\'s CLI: HERDR_SOCKET_PATH, HERDR_SESSION, then the default session', () => {
  assert.equal(resolveHerdrSocket({ HERDR_SOCKET_PATH: '/x/h.sock', HOME: '/h' }), '/x/h.sock');
  assert.equal(resolveHerdrSocket({ HERDR_SESSION: 'dev', HOME: '/h' }), '/h/.config/herdr/sessions/dev/herdr.sock');
  assert.equal(resolveHerdrSocket({ HERDR_SESSION: 'default', XDG_CONFIG_HOME: '/c', HOME: '/h' }), '/c/herdr/herdr.sock');
  assert.equal(resolveHerdrSocket({ HERDR_SESSION: '..', HOME: '/h' }), null);
});

test('not running: no file (ENOENT) and a file with no listener (ECONNREFUSED) are both unavailable', async () => {
  const stale = join(root, 'stale.sock');
  writeStaleSocketFile(stale);
  for (const socket of [join(root, 'none.sock'), stale]) {
    const m = createHerdrPanes({ socket });
    assert.equal(await m.available(), false);
    await assert.rejects(herdrCall(socket, 'ping', {}, 500), (e: unknown) => e instanceof HerdrError && e.code === 'unreachable');
  }
});

test('panes carry the shell pid and the foreground pids herdr reports', async () => {
  await withFake(async (fake) => {
    fake.setProcessInfo('w1:p1', { shellPid: 4100, foregroundGroup: 4188, foreground: [{ pid: 4188, name: 'claude', argv: ['claude'] }] });
    const panes = await createHerdrPanes({ socket: fake.socket }).listPanes();
    assert.deepEqual(panes, [{ ref: { manager: 'herdr', id: 'w1:p1', socket: fake.socket }, shellPid: 4100, foregroundPids: [4188], command: 'claude', cwd: null, label: null }]);
  });
});

test('protocol gates: below 14 unavailable; 14–15 lists but cannot focus; invalid_request reads as unsupported', async () => {
  await withFake(async (fake) => {
    const m = createHerdrPanes({ socket: fake.socket });
    assert.equal(await m.available(), false);
    assert.deepEqual(await m.listPanes(), []);
  }, 9);
  await withFake(async (fake) => {
    const m = createHerdrPanes({ socket: fake.socket });
    assert.equal(await m.available(), true);
    assert.equal((await m.listPanes()).length, 1);
    const r = await m.focus('w1:p1');
    assert.equal(r.outcome, 'unsupported');
    await assert.rejects(herdrCall(fake.socket, 'pane.focus', { pane_id: 'w1:p1' }), (e: unknown) => e instanceof HerdrError && e.code === 'invalid_request');
  }, 14);
});

test('open without an active workspace creates one first', async () => {
  await withFake(async (fake) => {
    fake.exitPane('w1:p1');
    assert.equal(fake.model.workspaces.size, 0);
    const r = await createHerdrPanes({ socket: fake.socket }).open({ cwd: root, argv: ['codex', 'resume', 'x'], label: 'l' });
    const pane = fake.model.panes.get(r.pane.id);
    assert.deepEqual(pane?.command, ['codex', 'resume', 'x']);
    assert.equal(pane?.cwd, root);
  });
});

test('faults: a reply that never comes times out; a line cut mid-way or malformed is a bad reply', async () => {
  await withFake(async (fake) => {
    fake.setFault('no_reply');
    await assert.rejects(herdrCall(fake.socket, 'ping', {}, 200), (e: unknown) => e instanceof HerdrError && e.code === 'timeout');
    fake.setFault('delay', 400);
    await assert.rejects(herdrCall(fake.socket, 'ping', {}, 100), (e: unknown) => e instanceof HerdrError && e.code === 'timeout');
    fake.setFault('close_mid_line');
    await assert.rejects(herdrCall(fake.socket, 'ping', {}, 1000), (e: unknown) => e instanceof HerdrError && e.code === 'bad_reply');
    fake.setFault('malformed');
    await assert.rejects(herdrCall(fake.socket, 'ping', {}, 1000), (e: unknown) => e instanceof HerdrError && e.code === 'bad_reply');
    fake.setFault('none');
    assert.equal((await herdrCall(fake.socket, 'ping', {}, 1000)).type, 'pong');
  });
});

test('the fake answers herdr\'s way: errors with codes, invalid_request with an empty id, keys validated first', async () => {
  await withFake(async (fake) => {
    await assert.rejects(herdrCall(fake.socket, 'pane.get', { pane_id: 'w1:p9' }), (e: unknown) => e instanceof HerdrError && e.code === 'pane_not_found' && e.message === 'pane w1:p9 not found');
    await assert.rejects(herdrCall(fake.socket, 'pane.send_keys', { pane_id: 'w1:p1', keys: ['Enter', 'bogus'] }), (e: unknown) => e instanceof HerdrError && e.code === 'invalid_key');
    assert.deepEqual(fake.model.panes.get('w1:p1')?.inputs, [], 'one bad key sends nothing');
    await herdrCall(fake.socket, 'pane.send_input', { pane_id: 'w1:p1', text: 'npm test', keys: ['Enter'] });
    assert.deepEqual(fake.model.panes.get('w1:p1')?.inputs, [{ text: 'npm test', keys: ['Enter'] }]);
    await assert.rejects(herdrCall(fake.socket, 'no.such', {}), (e: unknown) => e instanceof HerdrError && e.code === 'invalid_request');
  });
});
