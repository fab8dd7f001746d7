// The webhook channel against a real HTTP server on 127.0.0.1 owned by the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createWebhookChannel } from './webhook.ts';
import { channelContract, sampleNotification } from './contract.test-support.ts';

interface Hit { path: string; type: string; body: string }

async function receiver(status: number): Promise<{ url: string; hits: Hit[]; close(): Promise<void> }> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (status < 300) hits.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '', body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) };
}

for (const format of ['json', 'ntfy'] as const) {
  channelContract(`webhook (${format})`, async () => {
    const good = await receiver(200);
    const bad = await receiver(500);
    return {
      working: async () => createWebhookChannel({ url: `${good.url}/alerts`, format }),
      failing: async () => createWebhookChannel({ url: `${bad.url}/alerts`, format }),
      received: async () => good.hits.map((h) => Object.values(JSON.parse(h.body) as Record<string, unknown>).join('\n')),
      cleanup: async () => {
        await good.close();
        await bad.close();
      },
    };
  });
}

test('webhook json: the whole notification as JSON; ntfy: topic from the last path segment, posted to the root', async (t) => {
  const r = await receiver(200);
  t.after(() => r.close());
  await createWebhookChannel({ url: `${r.url}/hook`, format: 'json' }).send(sampleNotification());
  await createWebhookChannel({ url: `${r.url}/muster-alerts`, format: 'ntfy' }).send(sampleNotification());
  const [json, ntfy] = r.hits;
  assert.equal(json?.path, '/hook');
  assert.equal(json?.type, 'application/json');
  assert.equal((JSON.parse(json?.body ?? '{}') as { pageId?: string }).pageId, sampleNotification().pageId);
  assert.equal(ntfy?.path, '/');
  assert.deepEqual(JSON.parse(ntfy?.body ?? '{}'), {
    topic: 'muster-alerts', title: sampleNotification().title, message: sampleNotification().message, click: sampleNotification().url, priority: 5, tags: ['question'],
  });
});

test('webhook: an unreachable receiver is a failure with its reason, not a throw', async () => {
  const r = await receiver(200);
  await r.close(); // the port is now closed
  const out = await createWebhookChannel({ url: `${r.url}/x`, format: 'json', timeoutMs: 2000 }).send(sampleNotification());
  assert.ok(!out.ok && /unreachable/.test(out.error), JSON.stringify(out));
  assert.equal(await createWebhookChannel({ url: '', format: 'json' }).available(), false);
});
