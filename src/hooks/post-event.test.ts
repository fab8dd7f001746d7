import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findDaemon, postJson, trimPayload } from './post-event.ts';

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

test('a daemon that never answers costs at most the deadline', async () => {
  const { server, port } = await listen(() => {}); // accepts, never responds
  try {
    const t0 = performance.now();
    const r = await postJson({ api: `http://127.0.0.1:${port}/api`, token: 't' }, '/hooks/claude/Stop', {}, 150);
    const ms = performance.now() - t0;
    assert.equal(r, null);
    assert.ok(ms < 300, `took ${ms} ms`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('posts with the bearer token and returns the answer', async () => {
  let auth = '';
  const { server, port } = await listen((req, res) => {
    auth = req.headers.authorization ?? '';
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"decision":null}');
  });
  try {
    const r = await postJson({ api: `http://127.0.0.1:${port}/api`, token: 'sekrit' }, '/hooks/claude/Stop', { payload: {} }, 1000);
    assert.deepEqual(r, { ok: true, decision: null });
    assert.equal(auth, 'Bearer sekrit');
  } finally {
    server.close();
  }
});

test('findDaemon: wrapper env first, else the lock record; loopback only; null when nothing is there', () => {
  const home = mkdtempSync(join(tmpdir(), 'muster-find-'));
  try {
    assert.equal(findDaemon({ MUSTER_HOME: home }), null);
    const token = 'T'.repeat(43);
    writeFileSync(join(home, 'token'), `${token}\n`);
    writeFileSync(join(home, 'muster.db.lock'), JSON.stringify({ endpoints: { api: 'http://127.0.0.1:6878/api' } }));
    assert.deepEqual(findDaemon({ MUSTER_HOME: home }), { api: 'http://127.0.0.1:6878/api', token });
    assert.deepEqual(findDaemon({ MUSTER_HOME: home, MUSTER_URL: 'http://127.0.0.1:9/api' }), { api: 'http://127.0.0.1:9/api', token });
    assert.equal(findDaemon({ MUSTER_HOME: home, MUSTER_URL: 'http://evil.example:80/api' }), null);
    // An empty or malformed token file is no token: the hook posts nothing rather than an empty Bearer.
    for (const bad of ['', '\n', 'abc']) {
      writeFileSync(join(home, 'token'), bad);
      assert.equal(findDaemon({ MUSTER_HOME: home }), null, JSON.stringify(bad));
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('trimPayload keeps short scalars and status objects, drops bulky fields', () => {
  const out = trimPayload({ session_id: 'x', tool_input: { command: 'ls' }, prompt: 'p'.repeat(2000), n: 1, status: { type: 'busy' }, 'input-messages': ['a'] });
  assert.deepEqual(Object.keys(out).sort(), ['n', 'prompt', 'session_id', 'status']);
  assert.equal((out.prompt as string).length, 500);
  const gemini = trimPayload({ notification_type: 'ToolPermission', details: { type: 'exec', command: 'rm x', nested: { a: 1 } } });
  assert.deepEqual(gemini.details, { type: 'exec', command: 'rm x' }, 'what waits for approval, scalars only');
});
