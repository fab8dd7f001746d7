/**
 * Steering across hosts. The caller queues a command for the host that owns the session, page or
 * goal and waits, bounded, for that host's answer — which is exactly what the owner's own API
 * answered (status and body), errors included. The owner claims its commands, checks each (a known
 * kind, an object of arguments, not past its deadline, commands accepted at all) and runs it through
 * `execute`, which gives it exactly the checks a local request gets; then it writes the answer.
 * Waiting is on notifications, never on polling; a missed one is made good by reading the answer
 * once when the wait ends and again after every reconnection.
 */
import { MusterError } from '../errors/index.ts';
import type { ClaimedCommand, CommandQueue } from './command-queue.ts';
import { isCommandKind, type CommandAnswer, type CommandKind } from './types.ts';

/** How long a caller waits for the owner's answer by default, ms. */
export const COMMAND_WAIT_MS = 15_000;
/** After a command was claimed but not answered in time: this much longer for its answer, ms. */
const CLAIMED_GRACE_MS = 5_000;
/** Commands taken per claim. */
const CLAIM_BATCH = 10;

const errorBody = (code: string, message: string) => ({ ok: false, error: { code, message } });

/** What the owner does with a claimed command before running anything: refuse it, or run it. */
export function screen(c: ClaimedCommand, acceptCommands: boolean): { run: true; kind: CommandKind; args: Record<string, unknown> } | { run: false; status: 'failed' | 'expired'; answer: CommandAnswer } {
  if (c.late) return { run: false, status: 'expired', answer: { status: 504, body: errorBody('fleet_command_timeout', 'the command reached this host after its caller stopped waiting; nothing was done') } };
  if (!acceptCommands) return { run: false, status: 'failed', answer: { status: 403, body: errorBody('host_read_only', 'this host does not run commands from other hosts (fleetAcceptCommands is false)') } };
  if (!isCommandKind(c.kind)) return { run: false, status: 'failed', answer: { status: 400, body: errorBody('fleet_command_refused', 'not a command this host runs for others') } };
  if (typeof c.args !== 'object' || c.args === null || Array.isArray(c.args)) return { run: false, status: 'failed', answer: { status: 400, body: errorBody('fleet_command_refused', 'the command has no arguments object') } };
  return { run: true, kind: c.kind, args: c.args as Record<string, unknown> };
}

export interface CommandsOptions {
  queue: CommandQueue;
  selfId: string;
  /** Runs a command here, as a local request (must not throw: failures are answers). */
  execute(kind: CommandKind, args: Record<string, unknown>, fromHost: string): Promise<CommandAnswer>;
  /** Read fresh for every command: the setting fleetAcceptCommands. */
  acceptCommands(): Promise<boolean>;
  clock?: () => number;
  log?(line: string): void;
}

export interface Commands {
  /** Runs `kind` on `target` and returns its answer; throws `fleet_command_timeout` when none came in time. */
  send(target: { id: string; name: string }, kind: CommandKind, args: Record<string, unknown>, waitMs?: number): Promise<CommandAnswer>;
  /** A message on this host's channel: `{ cmd }` (claim) or `{ done }` (an answer to read). */
  onDirect(payload: Record<string, unknown>): void;
  /** Claims and runs every command queued for this host (at start and after reconnecting). */
  claimAll(): Promise<void>;
  /** After reconnecting: re-reads the answers of every command still waited for. */
  recheck(): void;
  close(): void;
}

export function createCommands(opts: CommandsOptions): Commands {
  const log = opts.log ?? (() => {});
  const clock = opts.clock ?? Date.now;
  const waiters = new Map<number, () => void>();
  /** Answers that arrived before their sender knew the id (bounded). */
  const early = new Set<number>();
  let claiming: Promise<void> | null = null;
  let claimAgain = false;
  let closed = false;

  async function runClaimed(c: ClaimedCommand): Promise<void> {
    const s = screen(c, await opts.acceptCommands());
    let status: 'done' | 'failed' | 'expired';
    let answer: CommandAnswer;
    if (!s.run) ({ status, answer } = s);
    else {
      try {
        answer = await opts.execute(s.kind, s.args, c.fromHost);
      } catch (e) {
        log(`[fleet] command ${c.id} (${c.kind}) failed: ${(e as Error).message}`);
        answer = { status: 500, body: errorBody('internal', 'internal error on the owning host; see its daemon log') };
      }
      status = answer.status < 400 ? 'done' : 'failed';
    }
    await opts.queue.complete(c.id, status, answer);
  }

  async function claimLoop(): Promise<void> {
    do {
      claimAgain = false;
      for (;;) {
        if (closed) return;
        const batch = await opts.queue.claim(opts.selfId, CLAIM_BATCH);
        if (batch.length === 0) break;
        // In order: of two answers to one page, the first queued wins.
        for (const c of batch) await runClaimed(c);
      }
    } while (claimAgain && !closed);
  }

  function claimAll(): Promise<void> {
    if (claiming) {
      claimAgain = true;
      return claiming;
    }
    claiming = claimLoop()
      .catch((e: unknown) => log(`[fleet] could not claim commands: ${(e as Error).message}`))
      .finally(() => {
        claiming = null;
      });
    return claiming;
  }

  /** A database failure while sending or waiting is the fleet being unreachable, said so. */
  async function unreachable<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof MusterError) throw e;
      throw new MusterError('fleet_unreachable', `the fleet database cannot be reached: ${(e as Error).message}`);
    }
  }

  function waitFor(id: number, ms: number): Promise<boolean> {
    if (early.delete(id)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        waiters.delete(id);
        resolve(false);
      }, ms);
      waiters.set(id, () => {
        clearTimeout(t);
        waiters.delete(id);
        resolve(true);
      });
    });
  }

  return {
    async send(target, kind, args, waitMs = COMMAND_WAIT_MS) {
      const where = `host "${target.name}"`;
      const id = await unreachable(() => opts.queue.submit({ target: target.id, from: opts.selfId, kind, args, waitMs }));
      // Woken by the answer's notification, or by a reconnection (to read an answer it may have missed).
      const until = async (deadline: number): Promise<CommandAnswer | null> => {
        for (;;) {
          await waitFor(id, Math.max(0, deadline - clock()));
          const r = await unreachable(() => opts.queue.result(id));
          if (r?.answer) return r.answer;
          if (clock() >= deadline || closed) return null;
        }
      };
      const first = await until(clock() + waitMs);
      if (first) return first;
      if (await unreachable(() => opts.queue.withdraw(id))) {
        throw new MusterError('fleet_command_timeout', `${where} did not take the command within ${Math.round(waitMs / 1000)} s (is its daemon running?); nothing was done`, { details: { host: target.name } });
      }
      // Claimed meanwhile: it is running there; give it a little longer.
      const late = await until(clock() + CLAIMED_GRACE_MS);
      if (late) return late;
      throw new MusterError('fleet_command_timeout', `${where} took the command but gave no answer in time; check there whether it ran`, { details: { host: target.name } });
    },
    onDirect(payload) {
      if (typeof payload.cmd === 'number') void claimAll();
      else if (typeof payload.done === 'number') {
        const w = waiters.get(payload.done);
        if (w) w();
        else {
          early.add(payload.done);
          if (early.size > 1000) early.delete(early.values().next().value as number);
        }
      }
    },
    claimAll,
    recheck() {
      // Answers published while the connection was down were missed: wake every waiter to read its own.
      for (const w of [...waiters.values()]) w();
    },
    close() {
      closed = true;
      for (const w of [...waiters.values()]) w();
    },
  };
}
