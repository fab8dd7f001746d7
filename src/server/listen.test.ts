// The Node adapter's timeouts over real sockets (issue 13, point 6): a connection that never
// finishes its headers or its body is answered 408 and closed within the bound, while long
// responses (an SSE stream, a POST whose answer waits like an MCP tool call) outlive it. Also: an
// idle server holds no timer, and requests that come before the adapter has loaded are answered.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { deferredAdapter, listen, type Listener } from './listen.ts';
import type { AppEnv } from './env.ts';

const HEADERS_MS = 300;
const REQUEST_MS = 600;

/** Opens a raw connection, writes `data`, and resolves when the server closes it: what it answered, and when. */
function stall(port: number, data: string): Promise<{ reply: string; ms: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    let reply = '';
    const s = connect(port, '127.0.0.1', () => data && s.write(data));
    s.on('data', (d) => (reply += d.toString()));
    s.on('error', () => {});
    s.on('close', () => resolve({ reply, ms: Date.now() - t0 }));
  });
}

describe('listen: request timeouts', () => {
  let l: Listener;
  before(async () => {
    const app = new Hono<AppEnv>();
    app.post('/body', async (c) => c.text(`got ${(await c.req.text()).length}`));
    app.post('/wait', async (c) => {
      await c.req.text();
      await new Promise((r) => setTimeout(r, REQUEST_MS * 3));
      return c.text('answered');
    });
    app.get('/stream', (c) =>
      streamSSE(c, async (stream) => {
        for (let i = 0; i < 10; i++) {
          await stream.writeSSE({ data: String(i) });
          await new Promise((r) => setTimeout(r, REQUEST_MS / 3));
        }
      }),
    );
    l = await listen(app, { port: 0, headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS, checkIntervalMs: 50 });
  });
  after(() => l.close());

  it('a connection that sends nothing, or only part of its headers, gets 408 and is closed', async () => {
    const [nothing, partial] = await Promise.all([stall(l.port, ''), stall(l.port, 'GET /body HTTP/1.1\r\nHost: 127.0.0.1\r\n')]);
    for (const r of [nothing, partial]) {
      assert.match(r.reply, /^HTTP\/1\.1 408 /);
      assert.ok(r.ms >= HEADERS_MS - 50 && r.ms < HEADERS_MS + 500, `closed after ${r.ms} ms`);
    }
  });

  it('a body that never completes is cut at the request timeout', async () => {
    const r = await stall(l.port, 'POST /body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    assert.match(r.reply, /^HTTP\/1\.1 408 /);
    assert.ok(r.ms >= REQUEST_MS - 50 && r.ms < REQUEST_MS + 500, `closed after ${r.ms} ms`);
  });

  it('an SSE stream and a slow answer to a complete request outlive both timeouts', async () => {
    const get = (method: string, path: string) =>
      new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: l.port, method, path, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve(text));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(method === 'POST' ? '{}' : undefined);
      });
    const t0 = Date.now();
    const [stream, waited] = await Promise.all([get('GET', '/stream'), get('POST', '/wait')]);
    assert.ok(Date.now() - t0 >= REQUEST_MS * 3, 'both lasted past the request timeout');
    assert.equal((stream.match(/^data: /gm) ?? []).length, 10, stream);
    assert.equal(waited, 'answered');
  });
});

describe('listen: an idle server holds no timer', () => {
  const timeouts = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  it('the timeout checks stop while no connection is open and come back with the next one', async () => {
    const app = new Hono<AppEnv>();
    const before = timeouts();
    const l = await listen(app, { port: 0, headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS, checkIntervalMs: 50 });
    try {
      assert.equal(timeouts(), before, 'no check interval while idle');
      const r = await stall(l.port, 'GET /x HTTP/1.1\r\n');
      assert.match(r.reply, /^HTTP\/1\.1 408 /, 'a stalled connection is still cut');
      assert.ok(r.ms < HEADERS_MS + 500, `closed after ${r.ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(timeouts(), before, 'stopped again once the last connection closed');
    } finally {
      await l.close();
    }
  });
});

describe('listen: the adapter loads after the server listens', () => {
  it('requests that come before the adapter has loaded wait for it and are all answered', async () => {
    const app = new Hono<AppEnv>();
    app.get('/n/:n', (c) => c.text(`n=${c.req.param('n')}`));
    // The listener alone, never told to load: the first request loads it, the others wait for that load.
    const server = createServer(deferredAdapter(app));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const get = (path: string) =>
        new Promise<{ status: number; body: string; nosniff: string | undefined }>((resolve, reject) => {
          request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, nosniff: res.headers['x-content-type-options'] as string | undefined }));
          }).on('error', reject).end();
        });
      const answers = await Promise.all([1, 2, 3, 4].map((n) => get(`/n/${n}`)));
      assert.deepEqual(answers.map((a) => [a.status, a.body]), [[200, 'n=1'], [200, 'n=2'], [200, 'n=3'], [200, 'n=4']]);
      assert.ok(answers.every((a) => a.nosniff === 'nosniff'), 'the headers every response carries are set on those too');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
