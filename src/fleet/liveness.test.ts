// Host liveness rules: reachable while heard from within the silence limit, judged on this host's
// clock; after a reconnect, estimated from the database's own clock so machines' clocks never matter.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { heardFromDatabase, isReachable, reachabilityChanges, SILENCE_MS, HEARTBEAT_MS } from './liveness.ts';

it('a host is reachable until it has been silent for 30 s, and never before it was heard', () => {
  assert.equal(SILENCE_MS, 30_000);
  assert.equal(isReachable(null, 1_000), false);
  assert.equal(isReachable(1_000, 1_000 + 29_999), true);
  assert.equal(isReachable(1_000, 1_000 + 30_000), false);
  assert.ok(3 * HEARTBEAT_MS <= SILENCE_MS, 'two lost heartbeats in a row do not make a host unreachable');
});

it('after a reconnect, the age comes from the database clock alone', () => {
  // The database says the host was seen 12 s before its own now; this host's clock is hours off.
  const local = 5_000_000;
  assert.equal(heardFromDatabase(1_000_000 - 12_000, 1_000_000, local), local - 12_000);
  assert.equal(heardFromDatabase(2_000_000, 1_000_000, local), local, 'a last_seen_at ahead of now() counts as just now');
});

it('only hosts whose reachability changed are reported', () => {
  const now = 100_000;
  const changes = reachabilityChanges([
    { id: 'a', lastHeardMs: now - 1_000, shownReachable: true },
    { id: 'b', lastHeardMs: now - 31_000, shownReachable: true },
    { id: 'c', lastHeardMs: now - 2_000, shownReachable: false },
    { id: 'd', lastHeardMs: null, shownReachable: false },
  ], now);
  assert.deepEqual(changes, [{ id: 'b', reachable: false }, { id: 'c', reachable: true }]);
});
