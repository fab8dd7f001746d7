// Steering across hosts, without a database: the command table's contract on the in-memory table, and
// the caller's and the owner's rules on top of it (the owner's answer comes back as it is; commands
// run once, in order; a read-only host, an unknown kind or a late command runs nothing; a caller that
// stops waiting withdraws what nobody took).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCommands, screen, type Commands } from './commands.ts';
import { createMemoryCommandQueue } from './command-queue-memory.test-support.ts';
import { commandQueueContract } from './command-queue.contract.test-support.ts';
import { MusterError } from '../errors/index.ts';
import type { CommandAnswer, CommandKind } from './types.ts';

commandQueueContract('in memory', async () => {
  const queue = createMemoryCommandQueue();
  return { queue, other: () => queue, close: async () => {} };
});

const A = 'hst_aaaaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'hst_bbbbbbbbbbbbbbbbbbbbbbbbbb';

/** Two hosts on one in-memory table: each host's channel delivers to its Commands. */
function fleetOfTwo(ownerExecute: (kind: CommandKind, args: Record<string, unknown>, from: string) => Promise<CommandAnswer>, accept = true) {
  const hosts = new Map<string, Commands>();
  const queue = createMemoryCommandQueue({ notify: (host, payload) => hosts.get(host)?.onDirect(payload) });
  const ran: { kind: string; args: unknown; from: string }[] = [];
  const owner = createCommands({
    queue, selfId: A, acceptCommands: async () => accept,
    execute: async (kind, args, from) => {
      ran.push({ kind, args, from });
      return ownerExecute(kind, args, from);
    },
  });
  const caller = createCommands({ queue, selfId: B, acceptCommands: async () => true, execute: async () => ({ status: 500, body: null }) });
  hosts.set(A, owner);
  hosts.set(B, caller);
  return { queue, owner, caller, ran };
}

describe('the owner screens a claimed command before running anything', () => {
  const c = { id: 1, kind: 'session.end', args: { sessionId: 'x' }, fromHost: B, late: false };
  it('runs a known kind with an arguments object', () => assert.deepEqual(screen(c, true), { run: true, kind: 'session.end', args: { sessionId: 'x' } }));
  it('refuses every command on a read-only host', () => assert.equal(screen(c, false).run === false && (screen(c, false) as { answer: CommandAnswer }).answer.status, 403));
  it('refuses an unknown kind, and arguments that are not an object', () => {
    for (const bad of [{ ...c, kind: 'settings.update' }, { ...c, args: ['x'] }, { ...c, args: null }]) {
      const s = screen(bad, true);
      assert.equal(s.run, false);
      assert.equal(((s as { answer: CommandAnswer }).answer.body as { error: { code: string } }).error.code, 'fleet_command_refused');
    }
  });
  it('answers a late command "too late" (expired) whatever it is', () => {
    const s = screen({ ...c, late: true, kind: 'nope' }, true);
    assert.equal(s.run === false && s.status, 'expired');
  });
});

describe('caller and owner', () => {
  it('the caller gets the owner\'s own answer, status and body', async () => {
    const f = fleetOfTwo(async (_k, args) => ({ status: 200, body: { ok: true, page: { id: args.pageId, status: 'answered' } } }));
    const a = await f.caller.send({ id: A, name: 'A' }, 'page.answer', { pageId: 'pag_1', text: 'yes' });
    assert.deepEqual(a, { status: 200, body: { ok: true, page: { id: 'pag_1', status: 'answered' } } });
    assert.deepEqual(f.ran, [{ kind: 'page.answer', args: { pageId: 'pag_1', text: 'yes' }, from: B }]);
    assert.equal(f.queue.rows[0]?.status, 'done');
  });

  it('two answers to one page: run once each, in the order queued; the second gets the owner\'s conflict', async () => {
    let answered = false;
    const f = fleetOfTwo(async () => {
      if (answered) return { status: 409, body: { ok: false, error: { code: 'page_already_answered', message: 'already answered' } } };
      answered = true;
      return { status: 200, body: { ok: true } };
    });
    const [x, y] = await Promise.all([
      f.caller.send({ id: A, name: 'A' }, 'page.answer', { pageId: 'pag_1', text: 'one' }),
      f.caller.send({ id: A, name: 'A' }, 'page.answer', { pageId: 'pag_1', text: 'two' }),
    ]);
    assert.deepEqual([x.status, y.status], [200, 409]);
    assert.deepEqual(f.ran.map((r) => (r.args as { text: string }).text), ['one', 'two']);
    assert.deepEqual(f.queue.rows.map((r) => r.status), ['done', 'failed']);
  });

  it('a read-only owner runs nothing and says so', async () => {
    const f = fleetOfTwo(async () => ({ status: 204, body: null }), false);
    const a = await f.caller.send({ id: A, name: 'A' }, 'session.end', { sessionId: 's' });
    assert.equal(a.status, 403);
    assert.equal((a.body as { error: { code: string } }).error.code, 'host_read_only');
    assert.deepEqual(f.ran, []);
  });

  it('an owner whose runner throws answers internal (no stack crosses), and keeps serving', async () => {
    let n = 0;
    const f = fleetOfTwo(async () => {
      if (n++ === 0) throw new Error('boom at /secret/path');
      return { status: 204, body: null };
    });
    const a = await f.caller.send({ id: A, name: 'A' }, 'goal.clear', { ref: 'r' });
    assert.equal(a.status, 500);
    assert.doesNotMatch(JSON.stringify(a.body), /secret/);
    assert.equal((await f.caller.send({ id: A, name: 'A' }, 'goal.clear', { ref: 'r' })).status, 204);
  });

  it('a caller whose command nobody takes withdraws it and says nothing was done', async () => {
    const queue = createMemoryCommandQueue();
    const caller = createCommands({ queue, selfId: B, acceptCommands: async () => true, execute: async () => ({ status: 500, body: null }) });
    await assert.rejects(caller.send({ id: A, name: 'A' }, 'session.end', { sessionId: 's' }, 30), (e: unknown) => e instanceof MusterError && e.code === 'fleet_command_timeout' && /host "A" did not take/.test(e.message));
    assert.equal(queue.rows[0]?.status, 'expired', 'withdrawn: it can never run later');
    assert.deepEqual(await queue.claim(A, 10), []);
  });

  it('a reconnection wakes waiters to re-read their answer, without giving up on a command still queued', async () => {
    const queue = createMemoryCommandQueue();
    const caller = createCommands({ queue, selfId: B, acceptCommands: async () => true, execute: async () => ({ status: 500, body: null }) });
    const sending = caller.send({ id: A, name: 'A' }, 'goal.pause', { ref: 'r' }, 60_000);
    while (queue.rows.length === 0) await new Promise((r) => setImmediate(r));
    caller.recheck();
    await new Promise((r) => setImmediate(r));
    assert.equal(queue.rows[0]?.status, 'queued', 'not withdrawn by the recheck');
    // The owner answers while the caller's notification was lost: the next recheck finds it.
    const [c] = await queue.claim(A, 1);
    await queue.complete(c!.id, 'done', { status: 200, body: { ok: true } });
    caller.recheck();
    assert.deepEqual(await sending, { status: 200, body: { ok: true } });
  });
});
