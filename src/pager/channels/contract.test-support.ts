/**
 * The shared contract every NotificationChannel passes: a delivery that arrives names
 * the session, the reason and the board link, text intact; a failing delivery resolves `ok: false` with
 * a reason and never throws, so it is recorded as failed and never reported as sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NotificationChannel, PageNotification } from './channel.ts';

export interface ChannelFixture {
  /** A channel whose deliveries reach `received()`. */
  working(): Promise<NotificationChannel>;
  /** A channel whose deliveries fail (receiver refusing or unreachable). */
  failing(): Promise<NotificationChannel>;
  /** Everything each arrived delivery carried, as one string per delivery. */
  received(): Promise<string[]>;
  cleanup(): Promise<void>;
}

export function sampleNotification(over: Partial<PageNotification> = {}): PageNotification {
  return {
    pageId: 'pag_01M8NRPP5TFJEH3V5KE1HPQ8YV', kind: 'question', session: 'claude 3f2a9c1e (shop)', sessionId: '3f2a9c1e-0000-4000-8000-000000000000',
    harness: 'claude', reason: 'asks a question', title: 'Muster: claude 3f2a9c1e (shop) — asks a question',
    message: 'Ship <b>v2</b> to prod? ünïcode ✓', urgency: 'high', choices: ['yes', 'no'], url: 'http://127.0.0.1:6878/?page=pag_01M8NRPP5TFJEH3V5KE1HPQ8YV', ...over,
  };
}

export function channelContract(name: string, makeFixture: () => Promise<ChannelFixture>): void {
  test(`${name}: a delivery arrives naming the session, the reason and the board link, text intact`, async () => {
    const f = await makeFixture();
    try {
      const ch = await f.working();
      assert.equal(await ch.available(), true);
      const n = sampleNotification();
      assert.deepEqual(await ch.send(n), { ok: true });
      const got = await f.received();
      assert.equal(got.length, 1);
      for (const part of [n.session, n.reason, n.url, 'Ship <b>v2</b> to prod? ünïcode ✓']) assert.ok(got[0]?.includes(part), `${part} missing from ${got[0]}`);
    } finally {
      await f.cleanup();
    }
  });

  test(`${name}: a failed delivery resolves ok:false with its reason, never throws, never counts as sent`, async () => {
    const f = await makeFixture();
    try {
      const ch = await f.failing();
      const r = await ch.send(sampleNotification());
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.error.length > 0);
      assert.deepEqual(await f.received(), []);
    } finally {
      await f.cleanup();
    }
  });
}
