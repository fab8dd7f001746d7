/**
 * An in-memory command table with the PostgreSQL one's semantics (each queued command claimed once,
 * oldest first; withdraw only while queued; deadlines), for unit tests of the callers and owners. The
 * contract suite (command-queue.contract.test-support.ts) holds it and the real one to the same rules.
 */
import type { CommandQueue, CommandStatus } from './command-queue.ts';
import type { CommandAnswer } from './types.ts';

interface Row { id: number; target: string; from: string; kind: string; args: unknown; status: CommandStatus; answer: CommandAnswer | null; deadline: number }

export function createMemoryCommandQueue(opts: { clock?: () => number; notify?(host: string, payload: Record<string, unknown>): void } = {}): CommandQueue & { rows: Row[] } {
  const clock = opts.clock ?? Date.now;
  const rows: Row[] = [];
  let next = 1;
  const tick = () => new Promise<void>((r) => setImmediate(r));
  return {
    rows,
    async submit(input) {
      await tick();
      const id = next++;
      rows.push({ id, target: input.target, from: input.from, kind: input.kind, args: structuredClone(input.args), status: 'queued', answer: null, deadline: clock() + input.waitMs });
      opts.notify?.(input.target, { cmd: id });
      return id;
    },
    async claim(host, limit) {
      // Synchronous between awaits: two claimers can never take the same row.
      const taken = rows.filter((r) => r.target === host && r.status === 'queued').slice(0, limit);
      for (const r of taken) r.status = 'claimed';
      await tick();
      return taken.map((r) => ({ id: r.id, kind: r.kind, args: structuredClone(r.args), fromHost: r.from, late: r.deadline < clock() }));
    },
    async complete(id, status, answer) {
      await tick();
      const r = rows.find((x) => x.id === id && x.status === 'claimed');
      if (!r) return;
      r.status = status;
      r.answer = answer;
      opts.notify?.(r.from, { done: id });
    },
    async withdraw(id) {
      await tick();
      const r = rows.find((x) => x.id === id && x.status === 'queued');
      if (!r) return false;
      r.status = 'expired';
      return true;
    },
    async result(id) {
      await tick();
      const r = rows.find((x) => x.id === id);
      return r ? { status: r.status, answer: r.answer } : undefined;
    },
  };
}
