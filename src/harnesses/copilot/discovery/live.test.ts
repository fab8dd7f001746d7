import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { argvSessionClaim, isCopilotNative, scanLive, stillOwns } from './live.ts';
import { listSessionDirs } from './session-dirs.ts';
import { copySession, NATIVE, PRINT_ID, tempHome, touchInuse, TUI_ID } from './copilot-fixtures.test-support.ts';

const LOADER = { argv: ['node', '/usr/lib/node_modules/@github/copilot/npm-loader.js'], exe: '/usr/bin/node' };

test('the native CLI is recognised by its executable, never the node loader', () => {
  assert.equal(isCopilotNative({ argv: [NATIVE], exe: NATIVE }), true);
  assert.equal(isCopilotNative({ argv: [NATIVE, '--resume=x'], exe: null }), true, 'exe unreadable: argv[0]');
  assert.equal(isCopilotNative(LOADER), false);
  assert.equal(isCopilotNative({ argv: ['copilot'], exe: '/usr/bin/python3' }), false, 'a renamed argv[0] is not enough');
});

test('argv claims: --resume=<id>, -r <id>, --session-id <id>; prefixes, names and values after -- are not', () => {
  const id = TUI_ID;
  assert.equal(argvSessionClaim([NATIVE, `--resume=${id}`]), id);
  assert.equal(argvSessionClaim([NATIVE, '-r', id.toUpperCase()]), id);
  assert.equal(argvSessionClaim([NATIVE, '--session-id', id]), id);
  assert.equal(argvSessionClaim([NATIVE, '--resume=c84bb9d8']), null);
  assert.equal(argvSessionClaim([NATIVE, '--resume', 'my session']), null);
  assert.equal(argvSessionClaim([NATIVE, '--', '--resume', id]), null);
});

test('a held flock by the native pid is live; the lock file of a dead, reused or foreign pid is stale', () => {
  const { home, cleanup } = tempHome();
  try {
    const a = copySession(home, TUI_ID);
    const b = copySession(home, PRINT_ID);
    const held = touchInuse(a, 4242);
    const reused = touchInuse(b, 5151);
    touchInuse(b, 6161); // its process is gone
    const proc = createFakeProc({
      processes: [{ pid: 4242, argv: [NATIVE], exe: NATIVE }, { pid: 5151, argv: ['python3'], exe: '/usr/bin/python3' }, { pid: 77, ...LOADER }],
      locks: [{ path: held.hold, pids: [4242] }, { path: reused.hold, pids: [5151] }],
    });
    const scan = scanLive(listSessionDirs(home).dirs, proc);
    assert.deepEqual([...scan.owners], [[TUI_ID, { pids: [4242], by: 'lock' }]]);
    assert.equal(scan.stale, 2);
  } finally {
    cleanup();
  }
});

test('a resumed session holds no lock before its first prompt: its argv claims it, unless the process holds another session', () => {
  const { home, cleanup } = tempHome();
  try {
    copySession(home, TUI_ID);
    const b = copySession(home, PRINT_ID);
    const proc = createFakeProc({ processes: [{ pid: 300, argv: [NATIVE, `--resume=${TUI_ID}`], exe: NATIVE }, { pid: 301, argv: [NATIVE, `--resume=${TUI_ID}`], exe: NATIVE }] });
    // 301 switched to another session in its TUI: its lock says where it is now.
    proc.holdLock(touchInuse(b, 301).hold, 301);
    const scan = scanLive(listSessionDirs(home).dirs, proc);
    assert.deepEqual(scan.owners.get(TUI_ID), { pids: [300], by: 'argv' });
    assert.deepEqual(scan.owners.get(PRINT_ID), { pids: [301], by: 'lock' });
  } finally {
    cleanup();
  }
});

test('stillOwns re-reads the pid: a restart under the same pid, or a lost lock, is not the owner any more', () => {
  const { home, cleanup } = tempHome();
  try {
    const dir = copySession(home, TUI_ID);
    const { hold } = touchInuse(dir, 4242);
    const proc = createFakeProc({ processes: [{ pid: 4242, argv: [NATIVE], exe: NATIVE, startTicks: 500 }], locks: [{ path: hold, pids: [4242] }] });
    const then = proc.read(4242)!;
    assert.equal(stillOwns(proc, then, TUI_ID, dir), true);
    proc.releaseLock(hold);
    assert.equal(stillOwns(proc, then, TUI_ID, dir), false);
    proc.holdLock(hold, 4242);
    proc.setStartTicks(4242, 900);
    assert.equal(stillOwns(proc, then, TUI_ID, dir), false);
  } finally {
    cleanup();
  }
});
