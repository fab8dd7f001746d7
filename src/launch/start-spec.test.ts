import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startEnv, startFromEnv, takeStartSpec, writeStartSpec, type StartSpec } from './start-spec.ts';

const LAUNCH = 'lch_0000000000010123456789';
const spec = (over: Partial<StartSpec> = {}): StartSpec => ({ version: 1, launchId: LAUNCH, harness: 'pi', cwd: '/w', args: ['hi there'], env: { PATH: '/bin', KEY: 'secret' }, ...over });

test('startEnv: the daemon environment without terminal, pane, launch and harness-process variables; MUSTER_HOME fixed', () => {
  const env = startEnv({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'x', GEMINI_CLI_NO_RELAUNCH: 'true', CODEX_THREAD_ID: 't', CODEX_HOME: '/c', OPENCODE_PID: '9', PATH: '/bin', TERM: 'xterm', TMUX: 's,1,0', TMUX_PANE: '%1', HERDR_PANE_ID: 'p', KITTY_WINDOW_ID: '3', PWD: '/x', SHLVL: '2', MUSTER_LAUNCH_ID: 'lch_x', MUSTER_READY_FD: '3', MUSTER_DEBUG: '1', MUSTER_HOME: '/other', ANTHROPIC_API_KEY: 'k', U: undefined }, '/home/m');
  assert.deepEqual(env, { CODEX_HOME: '/c', PATH: '/bin', MUSTER_DEBUG: '1', MUSTER_HOME: '/home/m', ANTHROPIC_API_KEY: 'k' });
});

test('the wrapper takes the start file once: read, deleted, its environment laid over the pane\'s', () => {
  const home = mkdtempSync(join(tmpdir(), 'muster-start-'));
  try {
    const path = writeStartSpec(home, spec());
    assert.throws(() => writeStartSpec(home, spec()), /EEXIST/, 'never over an existing one');
    const r = startFromEnv('pi', { MUSTER_START_FILE: path, TERM: 'tmux-256color', PATH: '/usr/bin', TMUX_PANE: '%4' });
    assert.deepEqual(r?.spec, spec());
    assert.deepEqual(r?.env, { TERM: 'tmux-256color', PATH: '/bin', TMUX_PANE: '%4', KEY: 'secret' });
    assert.equal(existsSync(path), false, 'the file (it may hold keys) is gone');
    assert.equal(existsSync(dirname(path)), false, 'and its empty directory');
    assert.throws(() => startFromEnv('pi', { MUSTER_START_FILE: path }), /cannot be opened/);
    assert.equal(startFromEnv('pi', {}), null, 'an ordinary `muster pi`');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a start file that is not private, not regular, not for this harness or malformed is refused', () => {
  const home = mkdtempSync(join(tmpdir(), 'muster-start-'));
  try {
    const open = writeStartSpec(home, spec());
    chmodSync(open, 0o644);
    assert.throws(() => takeStartSpec(open, 'pi'), /not private/);
    const other = writeStartSpec(home, spec({ launchId: 'lch_0000000000010123456780' }));
    assert.throws(() => takeStartSpec(other, 'claude'), /is for pi, not claude/);
    const link = join(home, 'link.json');
    symlinkSync(writeStartSpec(home, spec({ launchId: 'lch_0000000000010123456781' })), link);
    assert.throws(() => takeStartSpec(link, 'pi'), /cannot be opened/);
    for (const [i, body] of ['not json', JSON.stringify({ ...spec(), args: [1] }), JSON.stringify({ ...spec(), cwd: 'rel' }), JSON.stringify({ ...spec(), env: { A: 1 } }), JSON.stringify({ ...spec(), launchId: 'x' })].entries()) {
      const p = join(home, `bad${i}.json`);
      writeFileSync(p, body, { mode: 0o600 });
      assert.throws(() => takeStartSpec(p, 'pi'), /start file/, body);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
