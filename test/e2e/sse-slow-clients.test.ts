// Regression (issue 13, point 3) over real sockets: SSE clients that connect and never read are
// disconnected once their backlog passes the per-client bound (after the kernel's socket buffers
// fill), while a client that reads stays connected and receives every event in order.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { envFor, splitBoardUrl, startServe, tempHome, waitExit } from './kit.ts';

describe('SSE clients that stop reading', () => {
  const t = tempHome('muster-e2e-sse-slow-');
  let child: ChildProcess;
  let base = '';
  let token = '';
  let port = 0;
  before(async () => {
    const s = await startServe(envFor(t.home));
    child = s.child;
    ({ base, token, port } = splitBoardUrl(s.envelope.boardUrl));
  });
  after(async () => {
    child.kill('SIGTERM');
    await waitExit(child);
    t.cleanup();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${base}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await r.json()) as Record<string, unknown> & { counts?: { sseClients?: number } };
  };

  it('stalled clients are dropped; a reading client keeps every event', async () => {
    const stalled: Socket[] = [];
    for (let i = 0; i < 5; i++) {
      const s = connect(port, '127.0.0.1', () => s.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n\r\n`));
      s.pause(); // never reads: the daemon's writes back up
      s.on('error', () => {});
      stalled.push(s);
    }
    const ids: number[] = [];
    let readerClosed = false;
    const reader = request(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      let buf = '';
      res.on('data', (d: Buffer) => {
        buf += d.toString();
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const m = /^event: settings\.updated$[\s\S]*^id: (\d+)$/m.exec(buf.slice(0, i));
          if (m) ids.push(Number(m[1]));
          buf = buf.slice(i + 2);
        }
      });
      res.on('close', () => (readerClosed = true));
    });
    reader.on('error', () => {});
    reader.end();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await api('GET', '/status')).counts?.sseClients, 6);

    // ~2.5 KB events, four requests at a time, until the stalled clients are gone (or 20 MB each).
    let published = 0;
    let clients = 6;
    while (clients > 1 && published < 8000) {
      await Promise.all(Array.from({ length: 4 }, (_, k) => api('POST', '/settings', { webhookUrl: `http://127.0.0.1/${'x'.repeat(1900 + ((published + k) % 7))}` })));
      published += 4;
      if (published % 200 === 0) clients = (await api('GET', '/status')).counts?.sseClients ?? -1;
    }
    assert.equal(clients, 1, `after ${published} events, ${clients} SSE clients remain`);
    for (const s of stalled) s.destroy();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(readerClosed, false, 'the reading client was not dropped');
    assert.equal(ids.length, published, 'the reading client received every event');
    assert.ok(ids.every((id, i) => i === 0 || id === ids[i - 1]! + 1), 'in order, without gaps');
    reader.destroy();
  });
});
