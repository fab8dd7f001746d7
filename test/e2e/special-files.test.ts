// Regression (issue 13, point 1): a named pipe at $CLAUDE_CONFIG_DIR/sessions/999999.json or
// $CODEX_HOME/session_index.jsonl before start froze the real daemon in a synchronous open():
// /api/health stopped answering and `muster down` failed with daemon_unreachable until kill -9.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { makeSpecialFile } from '../fakes/special-files.ts';
import { envFor, isAlive, runCli, splitBoardUrl, startServe, tempHome, waitExit } from './kit.ts';
import { userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const SID = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';

describe('a daemon started with FIFOs in the harness homes', () => {
  const t = tempHome();
  const claudeHome = join(t.home, 'claude-config');
  const codexHome = join(t.home, 'codex-home');
  const env = envFor(t.home, { CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: codexHome });
  let daemon: ChildProcess | undefined;
  let base = '';
  let token = '';

  before(async () => {
    writeTranscript(claudeHome, SID, [userLine('listed despite the pipes', { sessionId: SID, cwd: '/tmp/proj' })], '/tmp/proj');
    makeSpecialFile(join(claudeHome, 'sessions', '999999.json'), 'fifo');
    makeSpecialFile(join(codexHome, 'session_index.jsonl'), 'fifo');
    const s = await startServe(env);
    daemon = s.child;
    ({ base, token } = splitBoardUrl(s.envelope.boardUrl));
  });
  after(async () => {
    // A frozen daemon ignores SIGTERM: only SIGKILL (by its pid) ends it.
    if (daemon?.pid && isAlive(daemon.pid)) daemon.kill('SIGKILL');
    if (daemon) await waitExit(daemon).catch(() => undefined);
    t.cleanup();
  });

  const get = async (path: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(3000) });
    return (await res.json()) as Record<string, unknown>;
  };

  it('/api/health answers, the sessions are listed and the pipes are counted in /api/diagnostics', async () => {
    const t0 = performance.now();
    assert.equal((await get('/api/health')).ok, true);
    assert.ok(performance.now() - t0 < 3000);
    const sessions = (await get('/api/sessions')).sessions as Array<{ id: string }>;
    assert.ok(sessions.some((s) => s.id === SID), 'the Claude session beside the pipe is listed');
    const diag = (await get('/api/diagnostics')).sources as Array<{ harness: string; notRegularFiles: number }>;
    for (const harness of ['claude', 'codex']) {
      assert.ok((diag.find((d) => d.harness === harness)?.notRegularFiles ?? 0) >= 1, `${harness} counts its pipe`);
    }
  });

  it('muster down stops it', async () => {
    const r = await runCli(['down'], env, { timeoutMs: 20_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await waitExit(daemon as ChildProcess, 10_000), 0);
  });
});
