// MUSTER_HOME's secrets over the real daemon (issue 13): a malformed token file is replaced, never
// served; empty credentials never authenticate.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, runCli, splitBoardUrl, startServe, tempHome, waitExit } from './kit.ts';

describe('the token file', () => {
  const homes: { cleanup(): void }[] = [];
  after(() => {
    for (const h of homes) h.cleanup();
  });

  for (const [what, text] of [['empty', ''], ['malformed (abc)', 'abc\n']] as const) {
    it(`a token file that is ${what} is replaced by a new token at start; an empty cookie or Bearer is 401`, async () => {
      const t = tempHome('muster-e2e-token-');
      homes.push(t);
      writeFileSync(join(t.home, 'token'), text, { mode: 0o600 });
      const { child, envelope } = await startServe(envFor(t.home));
      try {
        const { base, token, port } = splitBoardUrl(envelope.boardUrl);
        assert.match(token, /^[A-Za-z0-9_-]{43}$/, envelope.boardUrl);
        assert.equal(readFileSync(join(t.home, 'token'), 'utf8'), `${token}\n`, 'the file now holds the new token');
        for (const headers of [{ cookie: `muster_token_${port}=` }, { authorization: 'Bearer ' }, { cookie: `muster_token_${port}=abc` }, {}] as Record<string, string>[]) {
          const r = await fetch(`${base}/api/settings`, { headers });
          assert.equal(r.status, 401, JSON.stringify(headers));
        }
        const ok = await fetch(`${base}/api/settings`, { headers: { cookie: `muster_token_${port}=${token}` } });
        assert.equal(ok.status, 200);
        // Emptied while the daemon runs: the CLI never prints a board URL ending in `?token=`.
        writeFileSync(join(t.home, 'token'), '');
        const u = await runCli(['url'], envFor(t.home));
        assert.equal(u.code, 1, u.stdout);
        assert.equal(u.json.error?.code, 'daemon_unreachable');
        assert.doesNotMatch(u.stdout, /token=/);
      } finally {
        child.kill('SIGTERM');
        await waitExit(child);
      }
    });
  }

  it('files an earlier run left readable by others (0644) are made private again at start', async () => {
    const t = tempHome('muster-e2e-modes-');
    homes.push(t);
    const env = envFor(t.home);
    const first = await startServe(env);
    // Killed, so the store's -wal and -shm files and the lock stay behind as well.
    first.child.kill('SIGKILL');
    await waitExit(first.child);
    writeFileSync(join(t.home, 'logs', 'daemon.log'), 'earlier run\n');
    const files = ['token', 'muster.db', 'muster.db-wal', 'muster.db-shm', 'logs/daemon.log', 'muster.db.lock'].filter((f) => existsSync(join(t.home, f)));
    assert.deepEqual(files, ['token', 'muster.db', 'muster.db-wal', 'muster.db-shm', 'logs/daemon.log', 'muster.db.lock']);
    for (const f of files) chmodSync(join(t.home, f), 0o644);
    chmodSync(join(t.home, 'logs'), 0o755);
    chmodSync(t.home, 0o755);
    const { child } = await startServe(env);
    try {
      const modes = (names: string[], want: number) => names.filter((f) => existsSync(join(t.home, f))).map((f) => `${f || '.'} ${(statSync(join(t.home, f)).mode & 0o777).toString(8)}`).filter((m) => !m.endsWith(` ${want.toString(8)}`));
      assert.deepEqual([...modes(files, 0o600), ...modes(['', 'logs'], 0o700)], []);
    } finally {
      child.kill('SIGTERM');
      await waitExit(child);
    }
  });

  it('a background daemon never writes the token to logs/daemon.log; `up` still prints it to its caller', async () => {
    const t = tempHome('muster-e2e-log-');
    homes.push(t);
    const env = envFor(t.home);
    const up = await runCli(['up'], env);
    assert.equal(up.code, 0, up.stderr);
    const { base, token } = splitBoardUrl(up.json.boardUrl as string);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    // Some traffic that logs: a refused request, an MCP call without a session, a shutdown.
    await fetch(`${base}/api/settings?token=${token}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"nope":1}' });
    await fetch(`${base}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    const down = await runCli(['down'], env);
    assert.equal(down.code, 0, down.stderr);
    const log = readFileSync(join(t.home, 'logs', 'daemon.log'), 'utf8');
    assert.match(log, new RegExp(`"pid":${up.json.pid as number}`), 'the serve envelope is in the log');
    assert.equal(log.includes(token), false, `the token is in the log:\n${log}`);
    assert.doesNotMatch(log, /token=/);
  });
});
