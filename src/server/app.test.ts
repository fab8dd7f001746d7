// Route tests with no socket: the app is Web-standard, so `app.request` drives it: guards, token, body rules and error envelopes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from './app.ts';
import { coreRoutes } from './routes/core.ts';
import { openSqliteStore } from '../store/index.ts';

const TOKEN = 'a'.repeat(43);
const PORT = 7001;
const store = openSqliteStore({ path: ':memory:' });
let requests = 0;
const app = createApp({
  token: TOKEN,
  getPort: () => PORT,
  logError: () => {},
  onRequest: () => void requests++,
  routes: [
    coreRoutes({ identity: { service: 'muster', serviceProtocolVersion: 1, protocolVersion: 1, buildId: 'muster@test', pid: 1 }, store, startedAtMs: Date.now(), counts: () => ({}) }),
    (a) => a.get('/api/boom', () => { throw new Error('secret stack detail'); }),
  ],
});
const base = `http://127.0.0.1:${PORT}`;
const auth = { authorization: `Bearer ${TOKEN}`, host: `127.0.0.1:${PORT}` };

async function envelope(res: Response, status: number, code: string) {
  assert.equal(res.status, status);
  const body = (await res.json()) as { ok: boolean; error: { code: string; message: string } };
  assert.equal(body.ok, false);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  return body;
}

test('health answers without the token, only the identity; every request is heard as it comes in, also one refused', async () => {
  const before = requests;
  await app.request(`${base}/api/status`, { headers: { host: `127.0.0.1:${PORT}` } });
  const res = await app.request(`${base}/api/health`, { headers: { host: `127.0.0.1:${PORT}` } });
  assert.equal(requests - before, 2);
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys((await res.json()) as object).sort(), ['buildId', 'ok', 'pid', 'protocolVersion', 'service', 'serviceProtocolVersion']);
});

test('every other route needs the token: 401 with a plain hint', async () => {
  for (const path of ['/api/status', '/api/settings', '/api/events', '/mcp', '/api/nope']) {
    const body = await envelope(await app.request(`${base}${path}`, { headers: { host: `127.0.0.1:${PORT}` } }), 401, 'unauthorized');
    assert.match(body.error.message, /muster url/);
  }
});

test('a non-loopback Host is 403 even with the token (DNS rebinding)', async () => {
  for (const host of ['evil.example', 'evil.example:7001', '127.0.0.1.evil.example', '']) {
    await envelope(await app.request(`http://x/api/status`, { headers: { ...auth, host } }), 403, 'forbidden_host');
  }
  assert.equal((await app.request(`${base}/api/health`, { headers: { host: 'evil.example' } })).status, 403);
  for (const host of ['localhost:7001', '[::1]:7001', '127.0.0.1']) {
    assert.equal((await app.request(`${base}/api/status`, { headers: { ...auth, host } })).status, 200, host);
  }
});

test('?token= sets the per-port HttpOnly SameSite=Strict cookie and redirects to the clean URL', async () => {
  const res = await app.request(`${base}/?token=${TOKEN}&x=1`, { headers: { host: `127.0.0.1:${PORT}` } });
  assert.equal(res.status, 302);
  assert.equal(res.headers.get('location'), '/?x=1');
  const cookie = res.headers.get('set-cookie') ?? '';
  assert.match(cookie, new RegExp(`^muster_token_${PORT}=${TOKEN}`));
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  const ok = await app.request(`${base}/api/status`, { headers: { host: `127.0.0.1:${PORT}`, cookie: `muster_token_${PORT}=${TOKEN}` } });
  assert.equal(ok.status, 200);
  const otherPort = await app.request(`${base}/api/status`, { headers: { host: `127.0.0.1:${PORT}`, cookie: `muster_token_9999=${TOKEN}` } });
  assert.equal(otherPort.status, 401, 'another port\'s cookie does not count');
});

test('a wrong token in the query does not set a cookie', async () => {
  const res = await app.request(`${base}/?token=nope`, { headers: { host: `127.0.0.1:${PORT}` } });
  assert.equal(res.status, 401);
  assert.equal(res.headers.get('set-cookie'), null);
});

test('empty credentials never match: an empty cookie, Bearer or ?token= is 401; a malformed token refuses to serve', async () => {
  const host = `127.0.0.1:${PORT}`;
  await envelope(await app.request(`${base}/api/settings`, { headers: { host, cookie: `muster_token_${PORT}=` } }), 401, 'unauthorized');
  await envelope(await app.request(`${base}/api/settings`, { headers: { host, authorization: 'Bearer ' } }), 401, 'unauthorized');
  await envelope(await app.request(`${base}/?token=`, { headers: { host } }), 401, 'unauthorized');
  for (const token of ['', 'abc', 'x'.repeat(31)]) {
    assert.throws(() => createApp({ token, getPort: () => PORT, routes: [] }), /token is malformed/, JSON.stringify(token));
  }
});

const post = (body: string | null, headers: Record<string, string> = {}) =>
  app.request(`${base}/api/settings`, { method: 'POST', body, headers: { ...auth, 'content-type': 'application/json', ...headers } });

test('cross-origin POST is 403; same-origin and Bearer without Origin pass', async () => {
  await envelope(await post('{}', { origin: 'http://evil.example' }), 403, 'forbidden_origin');
  await envelope(await post('{}', { origin: 'http://127.0.0.1:9999' }), 403, 'forbidden_origin');
  await envelope(await post('{}', { origin: 'null' }), 403, 'forbidden_origin');
  await envelope(await post('{}', { 'sec-fetch-site': 'cross-site' }), 403, 'forbidden_origin');
  assert.equal((await post('{}', { origin: `http://127.0.0.1:${PORT}` })).status, 200);
  assert.equal((await post('{}')).status, 200);
  const cookieOnly = await app.request(`${base}/api/settings`, { method: 'POST', body: '{}', headers: { host: `127.0.0.1:${PORT}`, cookie: `muster_token_${PORT}=${TOKEN}`, 'content-type': 'application/json' } });
  await envelope(cookieOnly, 403, 'forbidden_origin');
});

test('bodies: 415 wrong type, 413 declared and undeclared oversize, 400 non-object or bad JSON', async () => {
  await envelope(await post('{}', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
  await envelope(await post('{}', { 'content-length': String(10 * 1024 * 1024) }), 413, 'payload_too_large');
  const big = JSON.stringify({ theme: 'x'.repeat(70 * 1024) });
  const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(big)); c.close(); } });
  await envelope(await app.request(`${base}/api/settings`, { method: 'POST', body: stream, headers: { ...auth, 'content-type': 'application/json' }, duplex: 'half' } as RequestInit), 413, 'payload_too_large');
  await envelope(await post(big, { 'content-length': '10' }), 413, 'payload_too_large');
  await envelope(await post('[1,2]'), 400, 'invalid_body');
  await envelope(await post('"x"'), 400, 'invalid_body');
  await envelope(await post('{oops'), 400, 'invalid_json');
  await envelope(await post('{"nope":1}'), 400, 'invalid_setting');
  await envelope(await post('{"theme":3}'), 400, 'invalid_setting');
});

test('settings round-trip through the API', async () => {
  const r = await post('{"theme":"dark"}');
  assert.equal(r.status, 200);
  const g = await app.request(`${base}/api/settings`, { headers: auth });
  assert.equal(((await g.json()) as { settings: { theme: string } }).settings.theme, 'dark');
});

test('unknown routes are a JSON 404; internal errors are 500 without the message or a stack', async () => {
  await envelope(await app.request(`${base}/api/nope`, { headers: auth }), 404, 'not_found');
  const body = await envelope(await app.request(`${base}/api/boom`, { headers: auth }), 500, 'internal');
  assert.doesNotMatch(JSON.stringify(body), /secret stack detail|at /);
});

test('/mcp is reserved behind the same checks', async () => {
  await envelope(await app.request(`${base}/mcp`, { headers: { host: `127.0.0.1:${PORT}` } }), 401, 'unauthorized');
  await envelope(await app.request(`${base}/mcp`, { headers: { ...auth, host: 'evil.example' } }), 403, 'forbidden_host');
});
