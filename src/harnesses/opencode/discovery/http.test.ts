import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenCodeHttp, parsePermissionsBody, parseStatusBody } from './http.ts';

const A = 'ses_aaaaaaaaaaaaAAAAAAAAAAAAAA';
const B = 'ses_bbbbbbbbbbbbBBBBBBBBBBBBBB';

test('parses /session/status, ignoring junk ids and shapes', () => {
  const m = parseStatusBody(JSON.stringify({ [A]: { type: 'busy' }, [B]: { type: 'retry', attempt: 1, message: 'x' }, 'ses_bad': { type: 'busy' }, x: 1 }));
  assert.deepEqual([...(m ?? [])], [[A, { type: 'busy' }], [B, { type: 'retry', attempt: 1, message: 'x' }]]);
  assert.equal(parseStatusBody('[]'), null);
  assert.equal(parseStatusBody('<html>'), null);
  assert.deepEqual([...(parseStatusBody('{}') ?? new Map())], []);
});

test('parses pending permissions of both shapes', () => {
  const body = JSON.stringify([
    { id: 'per_1', sessionID: A, permission: 'bash', patterns: ['touch /tmp/x'], metadata: {}, always: [], time: { created: 5 } },
    { id: 'per_2', sessionID: B, type: 'edit', pattern: 'src/a.ts', title: 'Edit src/a.ts', time: { created: 6 } },
    { id: 'per_3', sessionID: 'nope', permission: 'bash' },
  ]);
  assert.deepEqual(parsePermissionsBody(body), [
    { id: 'per_1', sessionId: A, reason: 'bash: touch /tmp/x', createdMs: 5 },
    { id: 'per_2', sessionId: B, reason: 'edit: Edit src/a.ts', createdMs: 6 },
  ]);
  assert.deepEqual(parsePermissionsBody('{"not":"a list"}'), []);
});

test('talks to a real server: view, abort; a dead or slow server answers null quickly', async () => {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === '/session/status') { res.end(JSON.stringify({ [A]: { type: 'busy' } })); return; }
    if (req.url === '/permission') { res.end(JSON.stringify([{ id: 'per_1', sessionID: A, permission: 'bash', patterns: ['ls'] }])); return; }
    if (req.url === `/session/${A}/abort`) { res.end('true'); return; }
    if (req.url === '/slow/session/status') return; // never answers
    res.statusCode = 404; res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const h = createOpenCodeHttp({ timeoutMs: 200 });
    const v = await h.view(base);
    assert.deepEqual([...(v?.status ?? [])], [[A, { type: 'busy' }]]);
    assert.equal(v?.permissions[0]?.reason, 'bash: ls');
    assert.equal(await h.abort(base, A), true);
    assert.equal(await h.abort(base, 'ses_../../x'), false, 'a malformed id never reaches a URL');
    const t0 = Date.now();
    assert.equal(await h.view(`${base}/slow/`), null);
    assert.ok(Date.now() - t0 < 2000, 'bounded by the timeout');
    assert.equal(await h.view('http://127.0.0.1:1'), null, 'connection refused');
    assert.ok(seen.includes(`POST /session/${A}/abort`));
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
