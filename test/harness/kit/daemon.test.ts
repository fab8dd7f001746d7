import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { daemonEnv, startHarnessDaemon } from './daemon.ts';
import { harnessEnv } from './harness-env.ts';

describe('harness daemon kit', () => {
  it('points the daemon at the harness homes of one root, with its own MUSTER_HOME and nothing else of the machine', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-kit-daemon-'));
    try {
      const claude = harnessEnv('claude', { root, modelUrl: 'http://127.0.0.1:9' });
      const pi = harnessEnv('pi', { root, modelUrl: 'http://127.0.0.1:9' });
      const oc = harnessEnv('opencode', { root, modelUrl: 'http://127.0.0.1:9' });
      const env = daemonEnv({ homes: [claude, pi, oc], root });
      assert.equal(env['HOME'], claude.home);
      assert.equal(env['CLAUDE_CONFIG_DIR'], claude.configDir);
      assert.equal(env['PI_CODING_AGENT_DIR'], pi.configDir);
      assert.equal(env['XDG_DATA_HOME'], path.join(claude.home, '.local', 'share'));
      assert.equal(env['MUSTER_HOME'], path.join(root, 'muster-home'));
      assert.equal(fs.statSync(env['MUSTER_HOME']).mode & 0o777, 0o700);
      for (const k of ['ANTHROPIC_API_KEY', 'TMUX', 'CODEX_HOME']) assert.equal(env[k], undefined, k);
      const other = harnessEnv('claude', { root: path.join(root, 'other'), modelUrl: 'http://127.0.0.1:9' });
      assert.throws(() => daemonEnv({ homes: [claude, other], root }), /disagree on HOME/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('starts the built daemon over empty homes: muster ls --json reports no sessions; diagnostics per harness', { timeout: 60_000 }, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-kit-daemon-'));
    const d = await startHarnessDaemon({ homes: [harnessEnv('claude', { root, modelUrl: 'http://127.0.0.1:9' })], root });
    try {
      assert.deepEqual(await d.listSessions(), []);
      assert.equal((await d.diagnostics('claude')).harness, 'claude');
      const events = await d.events();
      assert.equal(events.events[0]?.type, 'daemon.hello');
      await assert.rejects(d.waitFor(() => true, 300, 'anything'), /anything: not seen by muster ls within 300 ms/);
    } finally {
      await d.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
