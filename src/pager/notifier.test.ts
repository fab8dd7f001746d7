// The notifier: one notification per new page through each available channel, outcomes recorded on
// the page (a failure is recorded as failed, with its reason), duplicates collapsed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEventBus } from '../events/index.ts';
import { createNotifier, toNotification } from './notifier.ts';
import type { NotificationChannel, PageNotification } from './channels/channel.ts';
import type { DeliveryRecord, Page } from './types.ts';

function page(over: Partial<Page> = {}): Page {
  return {
    id: 'pag_01M8NRPP5TFJEH3V5KE1HPQ8YV', kind: 'question', sessionId: '3f2a9c1e-0000-4000-8000-000000000000', harness: 'claude',
    attribution: { sessionId: '3f2a9c1e-0000-4000-8000-000000000000', harness: 'claude', via: 'header', launchId: null, cwd: '/home/u/shop', note: null },
    limitKey: '3f2a9c1e-0000-4000-8000-000000000000', question: 'Ship it?', choices: ['yes', 'no'], urgency: 'normal', level: null, context: null,
    status: 'pending', answer: null, createdAt: '', answeredAt: null, deliveredAt: null, closedAt: null, closedBy: null, expiresAt: '', deliveries: [], ...over,
  };
}

function channel(name: string, result: 'ok' | 'fail' | 'throw' | 'absent'): NotificationChannel & { sent: PageNotification[] } {
  const sent: PageNotification[] = [];
  return {
    name,
    sent,
    available: async () => result !== 'absent',
    send: async (n) => {
      if (result === 'throw') throw new Error('boom');
      sent.push(n);
      return result === 'ok' ? { ok: true } : { ok: false, error: 'HTTP 500' };
    },
  };
}

test('each available channel is tried once; failures are recorded as failed with the reason; absent channels are skipped', async () => {
  const recorded: DeliveryRecord[] = [];
  const good = channel('desktop', 'ok');
  const bad = channel('webhook', 'fail');
  const thrower = channel('other', 'throw');
  const absent = channel('absent', 'absent');
  const n = createNotifier({ channels: async () => [good, bad, thrower, absent], repo: { recordDelivery: async (_id, r) => void recorded.push(r) }, bus: createEventBus(), boardUrl: (id) => `http://b/?page=${id}` });
  await n.notify(page());
  assert.deepEqual(recorded.map((r) => [r.channel, r.status, r.error]), [['desktop', 'sent', null], ['webhook', 'failed', 'HTTP 500'], ['other', 'failed', 'channel threw: boom']]);
  assert.equal(good.sent[0]?.url, 'http://b/?page=pag_01M8NRPP5TFJEH3V5KE1HPQ8YV');
  assert.equal(absent.sent.length, 0);
});

test('a duplicate (same session, same text) within the window is collapsed; after it, sent again', async () => {
  let now = 0;
  const good = channel('desktop', 'ok');
  const recorded: DeliveryRecord[] = [];
  const n = createNotifier({ channels: async () => [good], repo: { recordDelivery: async (_id, r) => void recorded.push(r) }, bus: createEventBus(), boardUrl: () => 'u', dedupeMs: 1000, clock: () => now });
  await n.notify(page());
  await n.notify(page({ id: 'pag_01M8NRPP5TFJEH3V5KE1HPQ8YW' }));
  await n.notify(page({ question: 'something else' }));
  now = 5000;
  await n.notify(page({ id: 'pag_01M8NRPP5TFJEH3V5KE1HPQ8YX' }));
  assert.deepEqual(recorded.map((r) => r.status), ['sent', 'collapsed', 'sent', 'sent']);
  assert.equal(good.sent.length, 3);
});

test('the notification names the session, the reason and shortens long text', () => {
  const n = toNotification(page({ question: 'x'.repeat(2000) }), 'http://b/?page=1');
  assert.equal(n.session, 'claude 3f2a9c1e (shop)');
  assert.equal(n.reason, 'asks a question');
  assert.ok(n.message.length < 700);
  const u = toNotification(page({ kind: 'notice', level: 'warning', sessionId: null, harness: null, attribution: { ...page().attribution, sessionId: null, cwd: null } }), 'u');
  assert.equal(u.session, 'unattributed agent');
  assert.equal(u.reason, 'warning');
});
