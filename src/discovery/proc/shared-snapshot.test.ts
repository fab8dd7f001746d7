import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFakeProc } from '../../../test/fakes/fake-proc.ts';
import { shareSnapshotPerTurn } from './shared-snapshot.ts';

test('callers of one turn share one read of the table; the next turn reads afresh', () => {
  const fake = createFakeProc({ processes: [{ pid: 10 }] });
  let reads = 0;
  const counting = { ...fake, snapshot: () => (reads++, fake.snapshot()) };
  const turnEnds: (() => void)[] = [];
  const proc = shareSnapshotPerTurn(counting, { afterTurn: (fn) => void turnEnds.push(fn) });
  const a = proc.snapshot();
  const b = proc.snapshot();
  assert.equal(a, b);
  assert.equal(reads, 1);
  fake.add({ pid: 11 });
  for (const end of turnEnds.splice(0)) end();
  const c = proc.snapshot();
  assert.equal(reads, 2);
  assert.ok(c.byPid.has(11), 'a new turn sees the process started since');
  assert.equal(proc.isAlive(10), true, 'the other operations pass through');
});

test('with the default turn end (setImmediate), a later turn does not see an old table', async () => {
  const fake = createFakeProc({ processes: [{ pid: 10 }] });
  const proc = shareSnapshotPerTurn(fake);
  const a = proc.snapshot();
  await new Promise((r) => setImmediate(r));
  fake.remove(10);
  const b = proc.snapshot();
  assert.notEqual(a, b);
  assert.equal(b.byPid.has(10), false);
});
