/**
 * The hooks' decision seam (src/hooks/service.ts `decide` and `collect`): a harness's turn-end event
 * (its adapter's `hooks.turnEnd`, e.g. Claude's and Codex's `Stop`) is a finished turn. Without an
 * active goal the answer is immediate (null), so the hook stays within its 250 ms bound. With one, the
 * audit can take up to auditTimeoutSeconds, so the answer is a ticket `{ pending, decisionId, waitMs }`
 * and the hook waits for the decision in a second request (`collect`). The driver's `continue` becomes
 * `{ decision: 'block', reason: <continuation prompt> }`.
 *
 * A continue that the harness would not take through a block is handed to `handoff` instead, never
 * dropped: when the block would exceed the harness's cap on consecutive blocks (the hook reports the
 * live cap as `muster_block_cap`; Claude 2.1.332's is 8), and when no hook collected the decision (it
 * gave up, was killed by the harness's hook timeout, or could not reach us).
 */
import type { Harness } from '../core/session.ts';
import type { GoalLimits, TurnDecision, TurnFinished } from './types.ts';

export type StopHookAnswer = { decision: 'block'; reason: string } | { pending: true; decisionId: string; waitMs: number } | null;

/** Why a continuation did not go through the Stop hook. */
export type HandoffWhy = 'block_cap' | 'hook_gone';

export interface HandoffInput {
  sessionId: string;
  harness: Harness;
  prompt: string;
  limits: GoalLimits;
  /** The harness process that stopped, when the hook knew it. */
  pid: number | null;
  cwd: string | null;
  why: HandoffWhy;
}

/** A harness's turn-end event and its cap on consecutive blocks (its adapter's `hooks.turnEnd`). */
export interface TurnEndSpec {
  event: string;
  /** 0 = no cap. Used when the hook does not report the live cap as `muster_block_cap`. */
  defaultBlockCap: number;
}

export interface HookDeciderOptions {
  onTurnFinished(turn: TurnFinished): Promise<TurnDecision>;
  /** The harness's turn end that carries the goal driver's answer, or null when its hooks cannot continue a session. */
  turnEndOf(harness: Harness): TurnEndSpec | null;
  /**
   * When the session's active goal was set (ms since the epoch), null when it has none: the cheap check
   * that keeps goal-less Stops fast, and the line before which a turn is not the goal's.
   */
  activeGoalSince(sessionId: string): Promise<number | null>;
  /** Bound of one audit, ms (read at each Stop). The ticket's waitMs adds a margin to it. */
  auditTimeoutMs(): Promise<number>;
  /**
   * Cumulative tokens of the session as Muster knows them (the hub), for the per-turn delta. Must not
   * throw; null when unknown. Default: none (turns count 0 tokens through hooks).
   */
  sessionTokens?(sessionId: string): number | null | Promise<number | null>;
  /**
   * The turn's final report from the session's transcript, for a harness whose turn-end payload
   * carries no `last_assistant_message` (Copilot's agentStop names only its transcript). Must not
   * throw; null when unknown. Default: none.
   */
  reportOf?(harness: Harness, sessionId: string): Promise<string | null>;
  /** The session's model and cwd, when known (the default auditor and CLI auditors use them). */
  sessionInfo?(sessionId: string): { model: string | null; cwd: string | null } | undefined;
  /** Delivers a continuation the Stop hook cannot (see above). Must not throw. Default: logged only. */
  handoff?(input: HandoffInput): Promise<void>;
  /** How long a decided continue waits for its hook before it is handed off, ms. Default: 2000. */
  collectGraceMs?: number;
  /** Ticket ids. Default: random. */
  newId?(): string;
  log?(line: string): void;
}

export interface HookDecider {
  decide(input: { harness: Harness; event: string; payload: Record<string, unknown>; pid?: number | null }, sessionId: string | null): Promise<StopHookAnswer>;
  /** Waits up to `waitMs` for a ticket's decision; null when none (stop, unknown ticket, timed out). */
  collect(decisionId: string, waitMs: number): Promise<{ decision: 'block'; reason: string } | null>;
}

type Block = { decision: 'block'; reason: string };
interface Ticket {
  done: boolean;
  result: Block | null;
  /** Claimed by a hook or by the handoff: delivered exactly once. */
  claimed: boolean;
  waiters: Set<(r: Block | null) => void>;
  onUnclaimed(): void;
}

/** Added to the audit bound: the turn count and store writes around the audit. */
const WAIT_MARGIN_MS = 5_000;

export function createHookDecider(o: HookDeciderOptions): HookDecider {
  const log = o.log ?? (() => {});
  const grace = o.collectGraceMs ?? 2000;
  const newId = o.newId ?? (() => `dec_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`);
  // Last cumulative total seen per session. After a daemon restart the first turn counts from the
  // total then (not from zero), so a restart never charges a goal with the session's whole history.
  const seen = new Map<string, number>();
  /** Consecutive blocks delivered per session (Claude's own counter, as far as we can see it). */
  const blocks = new Map<string, number>();
  const tickets = new Map<string, Ticket>();
  /** The last turn judged per session, where the hook names it (`muster_turn_id`): a repeat is not a new turn. */
  const lastTurn = new Map<string, string>();

  const handoff = (input: HandoffInput) => {
    log(`[goals] ${input.sessionId}: continuation not delivered by the Stop hook (${input.why}); handing it off`);
    void (o.handoff?.(input) ?? Promise.resolve()).catch((e: unknown) => log(`[goals] handoff failed: ${(e as Error).message}`));
  };

  const claim = (t: Ticket): boolean => {
    if (t.claimed) return false;
    t.claimed = true;
    return true;
  };

  function finish(id: string, t: Ticket, result: Block | null) {
    t.done = true;
    t.result = result;
    const [first] = t.waiters;
    if (first && (result === null || claim(t))) {
      t.waiters.delete(first);
      first(result);
    }
    for (const w of t.waiters) w(null);
    t.waiters.clear();
    if (result === null || t.claimed) return void tickets.delete(id);
    // Nobody is waiting: the hook's second request may still be on its way; after the grace, hand off.
    setTimeout(() => {
      tickets.delete(id);
      if (claim(t)) t.onUnclaimed();
    }, grace).unref();
  }

  async function turnOf(input: Parameters<HookDecider['decide']>[0], sessionId: string): Promise<TurnFinished> {
    const given = input.payload.last_assistant_message;
    const text = typeof given === 'string' ? given : await (o.reportOf?.(input.harness, sessionId) ?? Promise.resolve(null)).catch(() => null);
    const total = (await o.sessionTokens?.(sessionId)) ?? null;
    const before = seen.get(sessionId);
    if (total !== null) seen.set(sessionId, total);
    const tokens = total !== null && before !== undefined ? Math.max(0, total - before) : 0;
    const info = o.sessionInfo?.(sessionId);
    const cwd = typeof input.payload.cwd === 'string' ? input.payload.cwd : info?.cwd ?? null;
    return { sessionId, harness: input.harness, lastAssistantText: typeof text === 'string' ? text : null, tokens, model: info?.model ?? null, cwd };
  }

  return {
    async decide(input, sessionId) {
      const turnEnd = o.turnEndOf(input.harness);
      if (!sessionId || !turnEnd || input.event !== turnEnd.event) return null;
      // A turn end reported again for the turn already judged (OpenCode 1.18.33 can go idle twice after one
      // turn) is a copy: judging it would count a turn that never ran and send a second continuation.
      const turnId = input.payload.muster_turn_id;
      if (typeof turnId === 'string' && turnId !== '') {
        if (lastTurn.get(sessionId) === turnId) return null;
        lastTurn.set(sessionId, turnId);
        if (lastTurn.size > 10_000) lastTurn.delete(lastTurn.keys().next().value as string);
      }
      // stop_hook_active is false on the first Stop after a prompt: Claude's counter starts over.
      const consecutive = input.payload.stop_hook_active === true ? (blocks.get(sessionId) ?? 0) : 0;
      blocks.set(sessionId, consecutive);
      const capRaw = input.payload.muster_block_cap;
      const cap = typeof capRaw === 'number' && Number.isSafeInteger(capRaw) && capRaw >= 0 ? capRaw : turnEnd.defaultBlockCap;
      const since = await o.activeGoalSince(sessionId).catch(() => null);
      if (since === null) return null;
      // A turn that ended before the goal was set is not one of its turns. A reporter that reads the turn
      // before it reports (OpenCode's plugin reads the session's messages) can arrive after a goal set
      // meanwhile: judging it would count a turn that never ran for the goal and send a continuation.
      const endedAt = input.payload.muster_turn_ended_at;
      if (typeof endedAt === 'number' && Number.isFinite(endedAt) && endedAt < since) {
        log(`[goals] ${sessionId}: a turn that ended before the goal was set is not judged`);
        return null;
      }
      const turn = await turnOf(input, sessionId);
      const id = newId();
      const pid = input.pid ?? null;
      let continued: { prompt: string; limits: GoalLimits } | null = null;
      const ticket: Ticket = {
        done: false, result: null, claimed: false, waiters: new Set(),
        onUnclaimed: () => continued && handoff({ sessionId, harness: input.harness, ...continued, pid, cwd: turn.cwd ?? null, why: 'hook_gone' }),
      };
      tickets.set(id, ticket);
      void o.onTurnFinished(turn).then(
        (d) => {
          if (d.decision !== 'continue') return finish(id, ticket, null);
          continued = { prompt: d.prompt, limits: d.limits };
          // Claude overrides block number cap+1 and ends the turn: deliver this one another way.
          if (cap > 0 && consecutive + 1 > cap) {
            ticket.claimed = true;
            finish(id, ticket, null);
            return handoff({ sessionId, harness: input.harness, ...continued, pid, cwd: turn.cwd ?? null, why: 'block_cap' });
          }
          blocks.set(sessionId, consecutive + 1);
          finish(id, ticket, { decision: 'block', reason: d.prompt });
        },
        (e: unknown) => {
          log(`[goals] Stop decision for ${sessionId} failed: ${(e as Error).message}`);
          finish(id, ticket, null);
        },
      );
      return { pending: true, decisionId: id, waitMs: (await o.auditTimeoutMs().catch(() => 120_000)) + WAIT_MARGIN_MS };
    },

    collect(decisionId, waitMs) {
      const t = tickets.get(decisionId);
      if (!t) return Promise.resolve(null);
      if (t.done) return Promise.resolve(t.result && claim(t) ? t.result : null);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          t.waiters.delete(waiter);
          resolve(null);
        }, Math.max(0, waitMs)); // not unref'd: a request is waiting on it, bounded by waitMs
        const waiter = (r: Block | null) => {
          clearTimeout(timer);
          resolve(r);
        };
        t.waiters.add(waiter);
      });
    },
  };
}
