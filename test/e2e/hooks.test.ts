// Issue 8 through the built CLI and a real daemon: `muster hook` events become exact statuses on
// SSE, a stopped daemon never delays a hook beyond its bound, `muster hooks install|uninstall`
// restores the user's bytes exactly, and `muster <harness>` runs a (fake, on PATH) harness wired
// to Muster with the user's exit code, never putting the token on argv.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { BIN, envFor, runCli, sleep, splitBoardUrl, startServe, tempHome, waitExit } from './kit.ts';
import { registryJson, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const SID = '8e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b';

function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** Runs `muster hook …` with a payload on stdin; resolves with its exit code and wall time. */
function hook(args: string[], env: NodeJS.ProcessEnv, payload: unknown): Promise<{ code: number | null; ms: number; stdout: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'hook', ...args], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => resolve({ code, ms: performance.now() - t0, stdout }));
    child.stdin.end(JSON.stringify(payload));
  });
}

function nodeStartMs(): number {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - t0;
}

describe('hooks and the wrapper through the daemon', () => {
  const t = tempHome();
  const claudeHome = join(t.home, '.claude');
  const bin = join(t.home, 'bin');
  const env = envFor(t.home, { PATH: `${join(t.home, 'bin')}:${process.env.PATH ?? ''}` });
  let daemon: ChildProcess;
  let fakeClaude: ChildProcess;
  let base = '';
  let token = '';
  let port = 0;
  const sse: string[] = [];

  before(async () => {
    // A real process posing as a live, idle Claude session (registry + transcript).
    fakeClaude = spawn('bash', ['-c', 'exec -a claude sleep 300'], { stdio: 'ignore' });
    await sleep(100);
    mkdirSync(join(claudeHome, 'sessions'), { recursive: true });
    writeFileSync(join(claudeHome, 'sessions', `${fakeClaude.pid}.json`), registryJson({ pid: fakeClaude.pid!, sessionId: SID, procStart: startTicks(fakeClaude.pid!), status: 'idle', cwd: '/tmp/proj' }));
    writeTranscript(claudeHome, SID, [userLine('hello', { sessionId: SID, cwd: '/tmp/proj' })], '/tmp/proj');
    const s = await startServe(env);
    daemon = s.child;
    ({ base, token, port } = splitBoardUrl(s.envelope.boardUrl));
    const req = request(`${base}/api/events`, { headers: { authorization: `Bearer ${token}`, host: `127.0.0.1:${port}` } }, (res) => res.on('data', (d: Buffer) => sse.push(d.toString())));
    req.end();
    await sleep(300);
  });
  after(async () => {
    fakeClaude.kill('SIGKILL');
    if (daemon.exitCode === null) {
      daemon.kill('SIGTERM');
      await waitExit(daemon);
    }
    t.cleanup();
  });

  async function session(): Promise<{ status: string; waitingFor: string | null }> {
    const r = await runCli(['show', SID], env);
    assert.equal(r.code, 0, r.stderr);
    return r.json.session as { status: string; waitingFor: string | null };
  }

  it('hook events drive the exact status on SSE: working, waiting with the reason, idle', async () => {
    const henv = { ...env, CLAUDE_PID: String(fakeClaude.pid) };
    const t0 = performance.now();
    const r = await hook(['claude', 'UserPromptSubmit'], henv, { session_id: SID, hook_event_name: 'UserPromptSubmit', prompt: 'go' });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '', 'no envelope on a hook\'s stdout');
    while (!/session\.status\.changed[^\n]*\n[^\n]*"status":"working"/.test(sse.join('')) && performance.now() - t0 < 5000) await sleep(10);
    assert.match(sse.join(''), /"status":"working"/);
    assert.equal((await session()).status, 'working');
    await hook(['claude', 'PermissionRequest'], henv, { session_id: SID, tool_name: 'Write', tool_input: { file_path: '/x' } });
    assert.deepEqual(await session(), { ...(await session()), status: 'waiting', waitingFor: 'permission: Write' });
    await hook(['claude', 'Stop'], henv, { session_id: SID, stop_hook_active: false });
    assert.equal((await session()).status, 'idle');
  });

  it('muster hooks install twice leaves one copy; uninstall restores the bytes; a malformed file is refused untouched', async () => {
    const settings = join(claudeHome, 'settings.json');
    const original = '{"permissions":{"allow":["Bash(ls)"]},\n "hooks":{"Stop":[{"matcher":"","hooks":[{"type":"command","command":"true"}]}]}}\n';
    writeFileSync(settings, original);
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['hooks', 'install', '--harness', 'claude'], env);
      assert.equal(r.code, 0, r.stderr);
    }
    const doc = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, unknown[]> };
    assert.equal(doc.hooks.Stop?.length, 2);
    assert.equal(doc.hooks.SessionStart?.length, 1);
    const st = await runCli(['hooks', 'status', '--harness', 'claude'], env);
    assert.equal((st.json.harnesses as { installed: boolean; accepted: boolean }[])[0]?.installed, true);
    const u = await runCli(['hooks', 'uninstall', '--harness', 'claude'], env);
    assert.equal(u.code, 0, u.stderr);
    assert.equal(readFileSync(settings, 'utf8'), original);
    writeFileSync(settings, '{"hooks": [');
    const bad = await runCli(['hooks', 'install', '--harness', 'claude'], env);
    assert.notEqual(bad.code, 0);
    assert.equal(bad.json.error?.code, 'config_malformed');
    assert.equal(readFileSync(settings, 'utf8'), '{"hooks": [');
  });

  it('muster claude runs the harness wired to Muster: hooks, identity, exit code, no token in argv', async () => {
    // A fake `claude` on PATH: records argv/env/MCP config, fires its SessionStart hook, exits 7.
    mkdirSync(bin, { recursive: true });
    const record = join(t.home, 'fake-claude.json');
    writeFileSync(join(bin, 'claude'), `#!${process.execPath}
const fs = require('node:fs'); const { execSync } = require('node:child_process');
const a = process.argv.slice(2);
const mcp = JSON.parse(fs.readFileSync(a[a.indexOf('--mcp-config') + 1], 'utf8'));
const settings = JSON.parse(fs.readFileSync(a[a.indexOf('--settings') + 1], 'utf8'));
const sid = a[a.indexOf('--session-id') + 1];
execSync(settings.hooks.SessionStart[0].hooks[0].command, { input: JSON.stringify({ session_id: sid, hook_event_name: 'SessionStart' }) });
fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: a, mcp, launch: process.env.MUSTER_LAUNCH_ID, url: process.env.MUSTER_URL, mode: fs.statSync(a[a.indexOf('--mcp-config') + 1]).mode & 0o777 }));
process.exit(7);
`);
    chmodSync(join(bin, 'claude'), 0o755);
    const r = await runCli(['claude', '--name', 'demo', '-p', 'hi'], env);
    assert.equal(r.code, 7, r.stderr);
    const rec = JSON.parse(readFileSync(record, 'utf8')) as { argv: string[]; mcp: { mcpServers: { muster: { url: string; headers: Record<string, string> } } }; launch: string; url: string; mode: number };
    assert.ok(!rec.argv.join(' ').includes(token), 'token kept off argv');
    assert.equal(rec.mcp.mcpServers.muster.headers.Authorization, `Bearer ${token}`);
    assert.equal(rec.mcp.mcpServers.muster.headers['x-muster-launch-id'], rec.launch);
    assert.equal(rec.mode, 0o600);
    assert.deepEqual(rec.argv.slice(rec.argv.indexOf('-n'), rec.argv.indexOf('-n') + 4), ['-n', 'demo', '-p', 'hi']);
    assert.ok(!existsSync(join(t.home, 'launch', rec.launch)), 'the launch directory (it holds the token) is removed');
    const res = await fetch(`${base}/api/launches`, { headers: { authorization: `Bearer ${token}` } });
    const launches = ((await res.json()) as { launches: { id: string; name: string; exitCode: number; sessionId: string; pid: number }[] }).launches;
    const l = launches.find((x) => x.id === rec.launch);
    assert.equal(l?.name, 'demo');
    assert.equal(l?.exitCode, 7);
    assert.equal(l?.sessionId, rec.argv[rec.argv.indexOf('--session-id') + 1]);
    assert.ok((l?.pid ?? 0) > 0);
  });

  it('muster gemini refuses without the extension and says what to run; once installed it runs gemini with the extension\'s environment', async () => {
    mkdirSync(bin, { recursive: true });
    const record = join(t.home, 'fake-gemini.json');
    writeFileSync(join(bin, 'gemini'), `#!${process.execPath}
require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('MUSTER_'))) }));
process.exit(3);
`);
    chmodSync(join(bin, 'gemini'), 0o755);
    const refused = await runCli(['gemini', '-p', 'hi'], env);
    assert.notEqual(refused.code, 0);
    assert.match(refused.json.error?.message ?? '', /muster hooks install --harness gemini/);
    assert.equal(existsSync(record), false, 'gemini was not started');
    assert.equal((await runCli(['hooks', 'install', '--harness', 'gemini'], env)).code, 0);
    const r = await runCli(['gemini', '-p', 'hi'], env);
    assert.equal(r.code, 3, r.stderr);
    const rec = JSON.parse(readFileSync(record, 'utf8')) as { argv: string[]; env: Record<string, string> };
    assert.equal(rec.argv[0], '--session-id');
    assert.deepEqual(rec.argv.slice(2), ['-p', 'hi']);
    assert.equal(rec.env.MUSTER_SESSION_ID, rec.argv[1]);
    assert.equal(rec.env.MUSTER_MCP_TOKEN, token, 'the token in the environment the extension reads');
    assert.ok(!rec.argv.join(' ').includes(token), 'never in argv');
    assert.equal(rec.env.MUSTER_MCP_URL, `${base}/mcp`);
    assert.equal((await runCli(['hooks', 'uninstall', '--harness', 'gemini'], env)).code, 0);
    assert.equal(existsSync(join(t.home, '.gemini')), false, 'uninstall leaves no trace of the extension');
  });

  it('an unknown harness or command names the installed harnesses', async () => {
    const r = await runCli(['claudex'], env);
    assert.notEqual(r.code, 0);
    assert.match(r.json.error?.message ?? '', /harnesses installed here: .*claude/);
  });

  it('with the daemon stopped, a hook exits 0 within its 250 ms bound over plain node start-up', async () => {
    daemon.kill('SIGTERM');
    await waitExit(daemon);
    const node = Math.min(nodeStartMs(), nodeStartMs());
    const r = await hook(['claude', 'Stop'], env, { session_id: SID });
    assert.equal(r.code, 0);
    assert.ok(r.ms < node + 300 + 200, `hook took ${Math.round(r.ms)} ms (node -e 0: ${Math.round(node)} ms)`);
  });
});
