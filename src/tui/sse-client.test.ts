import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSseClient, createSseParser, type SseMessage } from './sse-client.ts';

describe('SSE client', () => {
  it('the parser handles split chunks, CRLF, comments, multi-line data and non-JSON data', () => {
    const parse = createSseParser();
    assert.deepEqual(parse('id: 1\nevent: a\nda'), []);
    assert.deepEqual(parse('ta: {"x":1}\n\n: heartbeat\n\n'), [{ id: '1', type: 'a', data: { x: 1 } }]);
    assert.deepEqual(parse('event: b\r\ndata: line1\r\ndata: line2\r\n\r\n'), [{ id: null, type: 'b', data: 'line1\nline2' }]);
  });

  it('reconnects after the stream drops and sends Last-Event-ID; the bearer token goes along', async () => {
    const seen: { auth?: string; last?: string }[] = [];
    const open = new Set<ServerResponse>();
    const server = createServer((req, res) => {
      seen.push({ auth: req.headers.authorization, last: req.headers['last-event-id'] as string | undefined });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      open.add(res);
      const n = seen.length;
      res.write(`id: ${n * 10}\nevent: tick\ndata: {"n":${n}}\n\n`);
      if (n === 1) setTimeout(() => res.end(), 20); // the first stream drops
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const got: SseMessage[] = [];
    const states: string[] = [];
    const client = createSseClient({ target: () => ({ url: `http://127.0.0.1:${port}/api/events`, token: 't0k' }), onMessage: (m) => got.push(m), onState: (s) => states.push(s), retryMs: 10 });
    try {
      const deadline = Date.now() + 5000;
      while (got.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(got.map((m) => m.data), [{ n: 1 }, { n: 2 }]);
      assert.deepEqual(seen, [{ auth: 'Bearer t0k', last: undefined }, { auth: 'Bearer t0k', last: '10' }]);
      assert.deepEqual(states, ['open', 'closed', 'open']);
      assert.equal(client.lastEventId(), '20');
    } finally {
      client.close();
      for (const r of open) r.destroy();
      await new Promise((r) => server.close(r));
    }
  });
});
