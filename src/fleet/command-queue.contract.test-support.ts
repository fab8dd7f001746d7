/**
 * The command table's contract, run against every implementation: the in-memory one (unit tier) and
 * PostgreSQL's (fleet tier). `make` gives a fresh, empty table and the notifications it sent.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CommandQueue } from './command-queue.ts';

export interface QueueRig {
  queue: CommandQueue;
  /** Another connection to the same table, for concurrent claimers. */
  other(): CommandQueue;
  close(): Promise<void>;
}

const H1 = 'hst_aaaaaaaaaaaaaaaaaaaaaaaaaa';
const H2 = 'hst_bbbbbbbbbbbbbbbbbbbbbbbbbb';
const ok = { status: 200, body: { ok: true } };

export function commandQueueContract(name: string, make: () => Promise<QueueRig>): void {
  describe(`command table contract: ${name}`, () => {
    it('claims a host\'s commands oldest first, only that host\'s, and only once', async () => {
      const rig = await make();
      try {
        const ids = [];
        for (let i = 0; i < 3; i++) ids.push(await rig.queue.submit({ target: H1, from: H2, kind: 'page.answer', args: { i }, waitMs: 60_000 }));
        await rig.queue.submit({ target: H2, from: H1, kind: 'page.answer', args: {}, waitMs: 60_000 });
        const first = await rig.queue.claim(H1, 2);
        assert.deepEqual(first.map((c) => c.id), ids.slice(0, 2));
        assert.deepEqual(first.map((c) => (c.args as { i: number }).i), [0, 1]);
        assert.equal(first[0]?.fromHost, H2);
        assert.equal(first[0]?.late, false);
        assert.deepEqual((await rig.queue.claim(H1, 10)).map((c) => c.id), ids.slice(2));
        assert.deepEqual(await rig.queue.claim(H1, 10), []);
      } finally {
        await rig.close();
      }
    });

    it('however many claimers run at once, every command is taken exactly once', async () => {
      const rig = await make();
      const others = [rig.other(), rig.other(), rig.other()];
      try {
        const ids = new Set<number>();
        for (let i = 0; i < 40; i++) ids.add(await rig.queue.submit({ target: H1, from: H2, kind: 'session.end', args: { i }, waitMs: 60_000 }));
        const taken: number[] = [];
        await Promise.all([rig.queue, ...others].map(async (q) => {
          for (;;) {
            const batch = await q.claim(H1, 3);
            if (batch.length === 0) return;
            taken.push(...batch.map((c) => c.id));
          }
        }));
        assert.equal(taken.length, ids.size, 'none twice');
        assert.deepEqual(new Set(taken), ids, 'none left');
      } finally {
        await rig.close();
      }
    });

    it('an answer is read back; a withdrawn command is never claimed; a claimed one cannot be withdrawn', async () => {
      const rig = await make();
      try {
        const a = await rig.queue.submit({ target: H1, from: H2, kind: 'goal.pause', args: { ref: 'x' }, waitMs: 60_000 });
        const b = await rig.queue.submit({ target: H1, from: H2, kind: 'goal.pause', args: { ref: 'y' }, waitMs: 60_000 });
        assert.equal(await rig.queue.withdraw(b), true);
        const claimed = await rig.queue.claim(H1, 10);
        assert.deepEqual(claimed.map((c) => c.id), [a]);
        assert.equal(await rig.queue.withdraw(a), false);
        assert.equal((await rig.queue.result(a))?.status, 'claimed');
        await rig.queue.complete(a, 'done', ok);
        assert.deepEqual(await rig.queue.result(a), { status: 'done', answer: ok });
        assert.equal((await rig.queue.result(b))?.status, 'expired');
      } finally {
        await rig.close();
      }
    });

    it('a command claimed after its deadline says so', async () => {
      const rig = await make();
      try {
        await rig.queue.submit({ target: H1, from: H2, kind: 'goal.clear', args: {}, waitMs: 0 });
        await new Promise((r) => setTimeout(r, 20));
        assert.equal((await rig.queue.claim(H1, 1))[0]?.late, true);
      } finally {
        await rig.close();
      }
    });
  });
}
