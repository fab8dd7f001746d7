// The real daemon over real HTTP on 127.0.0.1: auth, Host and Origin checks, body rules, JSON errors,
// SSE replay, and the board shell page with its headers.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { envFor, splitBoardUrl, startServe, tempHome, waitExit } from './kit.ts';
import type { ChildProcess } from 'node:child_process';

interface Res { status: number; headers: Record<string, string | string[] | undefined>; body: string; json: { ok?: boolean; error?: { code: string; message: string } } & Record<string, unknown> }

describe('HTTP surface of the real daemon', () => {
  const t = tempHome();
  let child: ChildProcess;
  let base = '';
  let token = '';
  let port = 0;
  let host = '';

  before(async () => {
    const s = await startServe(envFor(t.home));
    child = s.child;
    ({ base, token, port } = splitBoardUrl(s.envelope.boardUrl));
    host = `127.0.0.1:${port}`;
  });
  after(async () => {
    child.kill('SIGTERM');
    await waitExit(child);
    t.cleanup();
  });

  function call(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer[]): Promise<Res> {
    return new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, { method, headers: { host, ...headers }, agent: false }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          let json = {};
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json });
        });
      });
      req.on('error', reject);
      if (Array.isArray(body)) {
        for (const b of body) req.write(b);
        req.end();
      } else req.end(body);
    });
  }
  const bearer = () => ({ authorization: `Bearer ${token}` });
  function expectError(r: Res, status: number, code: string) {
    assert.equal(r.status, status, r.body);
    assert.equal(r.json.ok, false);
    assert.equal(r.json.error?.code, code);
    assert.doesNotMatch(r.body, /\n\s+at /, 'no stack trace');
  }

  it('401 on every route but /api/health without the token, including /api/events and /mcp', async () => {
    for (const [m, p] of [['GET', '/api/status'], ['GET', '/api/settings'], ['POST', '/api/settings'], ['GET', '/api/events'], ['POST', '/mcp'], ['GET', '/mcp'], ['GET', '/api/unknown'], ['GET', '/']] as const) {
      expectError(await call(m, p, m === 'POST' ? { 'content-type': 'application/json', origin: base } : {}, m === 'POST' ? '{}' : undefined), 401, 'unauthorized');
    }
    const h = await call('GET', '/api/health');
    assert.equal(h.status, 200);
    assert.equal(h.json.service, 'muster');
  });

  it('with the token but Host: evil.example → 403', async () => {
    expectError(await call('GET', '/api/status', { ...bearer(), host: 'evil.example' }), 403, 'forbidden_host');
    expectError(await call('GET', '/api/health', { host: 'evil.example' }), 403, 'forbidden_host');
  });

  it('cross-origin POST → 403', async () => {
    expectError(await call('POST', '/api/settings', { ...bearer(), 'content-type': 'application/json', origin: 'http://evil.example' }, '{}'), 403, 'forbidden_origin');
  });

  it('POST /api/settings: 415, 413 declared, 413 undeclared (chunked), 400 non-object, then a valid update', async () => {
    expectError(await call('POST', '/api/settings', { ...bearer(), 'content-type': 'text/plain' }, '{}'), 415, 'unsupported_media_type');
    expectError(await call('POST', '/api/settings', { ...bearer(), 'content-type': 'application/json', 'content-length': String(1 << 20) }, Buffer.alloc(0).toString()), 413, 'payload_too_large');
    const chunks = Array.from({ length: 20 }, () => Buffer.from(' '.repeat(8192)));
    expectError(await call('POST', '/api/settings', { ...bearer(), 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, chunks), 413, 'payload_too_large');
    expectError(await call('POST', '/api/settings', { ...bearer(), 'content-type': 'application/json' }, '[]'), 400, 'invalid_body');
    expectError(await call('POST', '/api/settings', { ...bearer(), 'content-type': 'application/json' }, 'nope'), 400, 'invalid_json');
    const ok = await call('POST', '/api/settings', { ...bearer(), 'content-type': 'application/json', origin: base }, '{"theme":"light"}');
    assert.equal(ok.status, 200);
    assert.equal((ok.json.settings as { theme: string }).theme, 'light');
  });

  it('POST /api/settings with a key Object.prototype has (__proto__, constructor, …) is 400 invalid_setting, never 500', async () => {
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const r = await call('POST', '/api/settings', { ...bearer(), 'content-type': 'application/json' }, `{"${key}":1}`);
      expectError(r, 400, 'invalid_setting');
      assert.match(r.json.error?.message ?? '', new RegExp(`unknown setting '${key}'`));
    }
    const s = await call('GET', '/api/settings', bearer());
    assert.deepEqual(Object.keys(s.json.settings as object).filter((k) => k.startsWith('_') || k === 'constructor'), []);
  });

  it('an unknown route is a JSON 404', async () => {
    expectError(await call('GET', '/api/nope', bearer()), 404, 'not_found');
    expectError(await call('DELETE', '/nothing/here', bearer()), 404, 'not_found');
  });

  it('a malformed request line never yields a 500', async () => {
    const reply = await new Promise<string>((resolve) => {
      const s = connect(port, '127.0.0.1', () => s.write('GARBAGE\r\n\r\n'));
      let text = '';
      s.on('data', (d) => (text += d.toString()));
      s.on('close', () => resolve(text));
      s.setTimeout(3000, () => s.destroy());
    });
    assert.doesNotMatch(reply, /^HTTP\/1\.1 5/);
  });

  it('connections that never finish their headers are answered 408 and closed within ~11 s; an SSE stream stays', async () => {
    const sse = await new Promise<{ close(): void; closed(): boolean }>((resolve, reject) => {
      let closed = false;
      const req = request(`${base}/api/events`, { headers: { host, ...bearer() }, agent: false }, (res) => {
        res.on('close', () => (closed = true));
        res.once('data', () => resolve({ close: () => req.destroy(), closed: () => closed }));
      });
      req.on('error', (e) => (closed ? undefined : reject(e)));
      req.end();
    });
    const stalls = Array.from({ length: 40 }, (_, i) =>
      new Promise<{ reply: string; ms: number }>((resolve) => {
        const t0 = Date.now();
        let reply = '';
        const s = connect(port, '127.0.0.1', () => i % 2 === 1 && s.write(`GET /api/status HTTP/1.1\r\nHost: ${host}\r\n`));
        s.on('data', (d) => (reply += d.toString()));
        s.on('error', () => {});
        s.on('close', () => resolve({ reply, ms: Date.now() - t0 }));
        s.setTimeout(30_000, () => s.destroy());
      }),
    );
    const results = await Promise.all(stalls);
    const slowest = Math.max(...results.map((r) => r.ms));
    assert.ok(slowest < 12_500, `the last stalled connection closed after ${slowest} ms`);
    assert.deepEqual(results.filter((r) => !r.reply.startsWith('HTTP/1.1 408 ')), []);
    assert.equal(sse.closed(), false, 'the SSE stream outlived the headers timeout');
    sse.close();
  });

  it('the board shell: token in the URL → cookie + redirect; the page has a strict CSP and no inline script', async () => {
    const first = await call('GET', `/?token=${token}`);
    assert.equal(first.status, 302);
    assert.equal(first.headers.location, '/');
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    assert.equal(cookie, `muster_token_${port}=${token}`);
    const page = await call('GET', '/', { cookie });
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.doesNotMatch(page.body, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(page.body, new RegExp(token), 'the token never appears in the page');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    assert.ok(asset, 'a hashed script asset');
    const js = await call('GET', asset, { cookie });
    assert.equal(js.status, 200);
    assert.match(String(js.headers['cache-control']), /immutable/);
  });

  it('SSE: hello first, then live events; Last-Event-ID replays what was missed', async () => {
    const read = (headers: Record<string, string>, until: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const req = request(`${base}/api/events`, { headers: { host, ...bearer(), ...headers }, agent: false }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => {
            text += d.toString();
            if (until.test(text)) {
              req.destroy();
              resolve(text);
            }
          });
        });
        req.on('error', (e) => (e.message.includes('aborted') || (e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
        req.end();
      });
    const hello = await read({}, /daemon\.hello[\s\S]*\n\n/);
    const last = Number(/"lastEventId":(\d+)/.exec(hello)?.[1]);
    assert.ok(last >= 1, 'daemon.ready was published');
    const replay = await read({ 'last-event-id': '0' }, /event: daemon\.ready[^\n]*\n(data[^\n]*\n)+id: 1\n/);
    assert.match(replay, /event: daemon\.ready/);
  });
});
