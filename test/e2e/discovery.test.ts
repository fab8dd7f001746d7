// Discovery through the real daemon: fake Claude homes on disk, a real process posing as `claude`,
// corrupt inputs that must be skipped and counted, live updates over SSE, and SIGKILL → not live in 2 s.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { envFor, runCli, sleep, splitBoardUrl, startServe, tempHome, waitExit } from './kit.ts';
import { assistantLine, metaLine, registryJson, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const DORMANT = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';
const LIVE = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const CORRUPT = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';

function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

interface Session { id: string; live: boolean; status: string; title: string; waitingFor: string | null; tokens: { input: number; output: number } }

describe('discovery through the daemon', () => {
  const t = tempHome();
  const claudeHome = join(t.home, '.claude');
  const env = envFor(t.home);
  let daemon: ChildProcess;
  let fakeClaude: ChildProcess;
  let other: ChildProcess;
  let base = '';
  let token = '';
  let port = 0;

  before(async () => {
    writeTranscript(claudeHome, DORMANT, [
      userLine('fix the login bug', { sessionId: DORMANT, cwd: '/tmp/proj' }),
      assistantLine({ id: 'msg_1', sessionId: DORMANT, input: 120, output: 30, cwd: '/tmp/proj' }),
      assistantLine({ id: 'msg_1', sessionId: DORMANT, input: 120, output: 30, cwd: '/tmp/proj' }),
    ], '/tmp/proj');
    // A real process whose argv[0] is `claude`, registered as a busy session.
    fakeClaude = spawn('bash', ['-c', 'exec -a claude sleep 300'], { stdio: 'ignore' });
    other = spawn('sleep', ['300'], { stdio: 'ignore' });
    await sleep(100);
    mkdirSync(join(claudeHome, 'sessions'), { recursive: true });
    writeFileSync(join(claudeHome, 'sessions', `${fakeClaude.pid}.json`), registryJson({ pid: fakeClaude.pid!, sessionId: LIVE, procStart: startTicks(fakeClaude.pid!), status: 'busy', cwd: '/tmp/proj' }));
    writeTranscript(claudeHome, LIVE, [userLine('refactor the parser', { sessionId: LIVE, cwd: '/tmp/proj' })], '/tmp/proj');
    // Corrupt inputs: a registry file naming another program's pid, an empty one, a directory where a file should be,
    // a transcript with a 50 MB line and invalid UTF-8, an empty transcript, and a directory named like a transcript.
    writeFileSync(join(claudeHome, 'sessions', `${other.pid}.json`), registryJson({ pid: other.pid!, sessionId: CORRUPT, procStart: startTicks(other.pid!) }));
    writeFileSync(join(claudeHome, 'sessions', '4000000.json'), '');
    mkdirSync(join(claudeHome, 'sessions', '4000001.json'));
    const bad = writeTranscript(claudeHome, CORRUPT, [userLine('corrupt but readable', { sessionId: CORRUPT })]);
    const fd = openSync(bad, 'a');
    writeSync(fd, `{"type":"user","message":{"content":"${'x'.repeat(50 * 1024 * 1024)}"}}\n`);
    writeSync(fd, Buffer.from([0xff, 0xfe, 0x7b, 0x0a]));
    writeSync(fd, `${assistantLine({ id: 'msg_c', sessionId: CORRUPT, input: 5, output: 5 })}\n`);
    closeSync(fd);
    writeFileSync(join(claudeHome, 'projects', '-tmp-proj', '11111111-2222-4333-8444-555555555555.jsonl'), '');
    mkdirSync(join(claudeHome, 'projects', '-tmp-proj', '66666666-7777-4888-9999-aaaaaaaaaaaa.jsonl'));
    const s = await startServe(env);
    daemon = s.child;
    ({ base, token, port } = splitBoardUrl(s.envelope.boardUrl));
  });
  after(async () => {
    fakeClaude.kill('SIGKILL');
    other.kill('SIGKILL');
    daemon.kill('SIGTERM');
    await waitExit(daemon);
    t.cleanup();
  });

  /** An SSE client collecting raw chunks; resolves once it has had time to connect. */
  async function collectEvents(): Promise<{ events: string[]; req: ReturnType<typeof request> }> {
    const events: string[] = [];
    const req = request(`${base}/api/events`, { headers: { authorization: `Bearer ${token}`, host: `127.0.0.1:${port}` } }, (res) => {
      res.on('data', (d: Buffer) => events.push(d.toString()));
    });
    req.on('error', () => {});
    req.end();
    await sleep(200);
    return { events, req };
  }

  async function ls(): Promise<Session[]> {
    const r = await runCli(['ls', '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    return r.json.sessions as Session[];
  }

  it('muster ls --json lists dormant and live sessions once each, with status, title and tokens', async () => {
    const sessions = await ls();
    const ids = sessions.map((s) => s.id);
    assert.equal(new Set(ids).size, ids.length, 'each session once');
    const d = sessions.find((s) => s.id === DORMANT);
    assert.ok(d);
    assert.equal(d.live, false);
    assert.equal(d.status, 'ended');
    assert.equal(d.title, 'fix the login bug');
    assert.equal(d.tokens.input, 120, 'a repeated API message counts once');
    assert.equal(d.tokens.output, 30);
    const l = sessions.find((s) => s.id === LIVE);
    assert.ok(l);
    assert.equal(l.live, true);
    assert.equal(l.status, 'working');
    const c = sessions.find((s) => s.id === CORRUPT);
    assert.ok(c, 'the transcript with bad lines still yields its session');
    assert.equal(c.live, false, 'a registry file naming another program does not make it live');
  });

  it('corrupt inputs are skipped and counted in /api/diagnostics; the daemon keeps serving', async () => {
    const diag = await new Promise<{ sources: { harness: string; linesSkipped: number; staleRegistryFiles: number; filesSkipped: number }[] }>((resolve, reject) => {
      request(`${base}/api/diagnostics`, { headers: { authorization: `Bearer ${token}`, host: `127.0.0.1:${port}` } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(JSON.parse(text)));
      }).on('error', reject).end();
    });
    const claude = diag.sources.find((s) => s.harness === 'claude');
    assert.ok(claude);
    assert.ok(claude.linesSkipped >= 2, `50 MB line and invalid UTF-8 skipped (${claude.linesSkipped})`);
    assert.ok(claude.staleRegistryFiles >= 1, 'registry file of another program counted as stale');
    assert.ok(claude.filesSkipped >= 1, `empty file / directory counted (${claude.filesSkipped})`);
    const st = await runCli(['status'], env);
    assert.equal(st.json.running, true);
  });

  it('a registry status change reaches an SSE client within 1 s; an append is an upsert', async () => {
    const { events, req } = await collectEvents();
    const t0 = Date.now();
    writeFileSync(join(claudeHome, 'sessions', `${fakeClaude.pid}.json`), registryJson({ pid: fakeClaude.pid!, sessionId: LIVE, procStart: startTicks(fakeClaude.pid!), status: 'waiting', waitingFor: 'permission to run rm -rf build', cwd: '/tmp/proj' }));
    while (!events.join('').includes('permission to run rm -rf build') && Date.now() - t0 < 3000) await sleep(20);
    const ms = Date.now() - t0;
    assert.match(events.join(''), /event: session\.status\.changed[\s\S]*permission to run rm -rf build/);
    assert.ok(ms < 1000, `status change on SSE after ${ms} ms`);
    appendFileSync(join(claudeHome, 'projects', '-tmp-proj', `${DORMANT}.jsonl`), `${metaLine('custom-title', { customTitle: 'Login bug, renamed' }, DORMANT)}\n`);
    const t1 = Date.now();
    while (!events.join('').includes('Login bug, renamed') && Date.now() - t1 < 3000) await sleep(20);
    assert.match(events.join(''), /event: session\.upserted[\s\S]*Login bug, renamed/);
    req.destroy();
  });

  it('after SIGKILL the session shows live: false within 2 s (the leftover registry file does not keep it live)', async () => {
    const { events, req } = await collectEvents();
    const t0 = Date.now();
    fakeClaude.kill('SIGKILL');
    const notLive = new RegExp(`event: session\\.status\\.changed\\ndata: [^\\n]*"id":"${LIVE}"[^\\n]*"live":false`);
    while (!notLive.test(events.join('')) && Date.now() - t0 < 5000) await sleep(10);
    const ms = Date.now() - t0;
    req.destroy();
    assert.match(events.join(''), notLive);
    assert.ok(ms < 2000, `not live after ${ms} ms`);
    const s = (await ls()).find((x) => x.id === LIVE);
    assert.equal(s?.live, false, 'muster ls agrees');
  });
});
