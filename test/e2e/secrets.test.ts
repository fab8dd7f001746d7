// MUSTER_HOME's secrets over the real daemon (issue 13): a malformed token file is replaced, never
// served; empty credentials never authenticate.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
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
});
