// Daemon lifecycle over real processes (issue: foundation acceptance): up/status/url/down,
// kill -9 recovery, pid reuse, a foreign build, SIGTERM with an SSE client connected.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { envFor, isAlive, runCli, sleep, splitBoardUrl, startServe, tempHome, waitExit } from './kit.ts';

describe('daemon lifecycle', () => {
  const t = tempHome();
  const env = envFor(t.home);
  after(async () => {
    await runCli(['down'], env);
    t.cleanup();
  });

  it('status never starts a daemon', async () => {
    const r = await runCli(['status'], env);
    assert.equal(r.code, 0);
    assert.equal(r.json.running, false);
    assert.equal(existsSync(join(t.home, 'muster.db.lock')), false);
  });

  it('up returns once ready with { ok, pid, boardUrl, mcpUrl }; files are private', async () => {
    const r = await runCli(['up'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.ok, true);
    assert.ok(isAlive(r.json.pid as number));
    assert.match(r.json.boardUrl as string, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32,}$/);
    assert.match(r.json.mcpUrl as string, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { statSync } = await import('node:fs');
    assert.equal(statSync(t.home).mode & 0o777, 0o700);
    for (const f of ['token', 'muster.db', 'muster.db.lock']) assert.equal(statSync(join(t.home, f)).mode & 0o777, 0o600, f);
    const s = await runCli(['status'], env);
    assert.equal(s.json.running, true);
    assert.equal(s.json.pid, r.json.pid);
    const u = await runCli(['url'], env);
    assert.equal(u.json.url, r.json.boardUrl);
  });

  it('kill -9: status reports not running and starts nothing; the next command that needs the daemon reclaims', async () => {
    const before = await runCli(['status'], env);
    const pid = before.json.pid as number;
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await sleep(10);
    const s = await runCli(['status'], env);
    assert.equal(s.json.running, false);
    assert.equal(existsSync(join(t.home, 'muster.db.lock')), true, 'the stale lock is still there: status did not touch it');
    const u = await runCli(['url'], env);
    assert.equal(u.code, 0, u.stderr);
    const s2 = await runCli(['status'], env);
    assert.equal(s2.json.running, true);
    assert.notEqual(s2.json.pid, pid);
  });

  it('down leaves no lock file and status reports running: false', async () => {
    const d = await runCli(['down'], env);
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.json.stopped, true);
    assert.equal(existsSync(join(t.home, 'muster.db.lock')), false);
    const s = await runCli(['status'], env);
    assert.equal(s.json.running, false);
    const again = await runCli(['down'], env);
    assert.equal(again.json.stopped, false);
  });

  it('a lock naming a live pid whose start time differs (pid reuse) is reclaimed', async () => {
    const up = await runCli(['up'], env);
    const record = JSON.parse(readFileSync(join(t.home, 'muster.db.lock'), 'utf8')) as Record<string, unknown> & { ownerStartedAt: { ticks?: number } };
    process.kill(up.json.pid as number, 'SIGKILL');
    while (isAlive(up.json.pid as number)) await sleep(10);
    // Re-point the dead daemon's record at a live, unrelated process with a different start time.
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const forged = { ...record, pid: sleeper.pid, ownerStartedAt: { ...record.ownerStartedAt, ticks: (record.ownerStartedAt.ticks ?? 0) - 5000 } };
      writeFileSync(join(t.home, 'muster.db.lock'), JSON.stringify(forged), { mode: 0o600 });
      const s = await runCli(['status'], env);
      assert.equal(s.json.running, false, 'a reused pid is not our daemon');
      const again = await runCli(['up'], env);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.json.alreadyRunning, false);
      assert.ok(isAlive(sleeper.pid!), 'the unrelated process was not signalled');
    } finally {
      sleeper.kill('SIGKILL');
      await runCli(['down'], env);
    }
  });

  it('a live daemon of another build is reported by pid and never displaced', async () => {
    const foreign = await startServe(envFor(t.home, { MUSTER_BUILD_ID: 'muster@9.9.9-other' }));
    try {
      const up = await runCli(['up'], env);
      assert.notEqual(up.code, 0);
      assert.equal(up.json.error?.code, 'owned_by_other_build');
      assert.match(up.json.error?.message ?? '', new RegExp(`pid ${foreign.envelope.pid}`));
      const s = await runCli(['status'], env);
      assert.equal(s.json.foreign, true);
      assert.equal(s.json.pid, foreign.envelope.pid);
      assert.ok(isAlive(foreign.envelope.pid), 'still running');
      const d = await runCli(['down'], env);
      assert.equal(d.json.stopped, true, 'down stops it, as the error message says');
      await waitExit(foreign.child);
    } finally {
      foreign.child.kill('SIGKILL');
    }
  });

  it('SIGTERM while an SSE client is connected: the daemon exits within 2 s', async () => {
    const { child, envelope } = await startServe(env);
    const { base, token, port } = splitBoardUrl(envelope.boardUrl);
    const firstEvent = await new Promise<string>((resolve, reject) => {
      const req = request(`${base}/api/events`, { headers: { authorization: `Bearer ${token}`, host: `127.0.0.1:${port}` } }, (res) => {
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers['content-type']), /text\/event-stream/);
        res.once('data', (d: Buffer) => resolve(d.toString()));
      });
      req.on('error', reject);
      req.end();
    });
    assert.match(firstEvent, /daemon\.hello/);
    const t0 = Date.now();
    child.kill('SIGTERM');
    const code = await waitExit(child, 5000);
    const ms = Date.now() - t0;
    assert.equal(code, 0);
    assert.ok(ms < 2000, `exited in ${ms} ms`);
    assert.equal(existsSync(join(t.home, 'muster.db.lock')), false, 'lock released');
    assert.deepEqual(readdirSync(t.home).filter((f) => /\.(tmp|reclaim)$|lock\./.test(f)), []);
  });
});
