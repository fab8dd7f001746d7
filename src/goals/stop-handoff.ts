/**
 * Where a continuation goes when the turn-end hook cannot deliver it (hook-decision.ts `handoff`): the
 * harness stopped honouring blocks (its consecutive-block cap), or the hook was gone before the
 * decision was. Either way the turn has ended. Once the session's process has exited (print mode), the
 * next turn runs headless with Muster's hooks injected again (Claude: `claude --resume <id> -p
 * "<continuation>" --settings <hooks>`), so the hook keeps driving it — for harnesses whose adapter can
 * (`headless.continueWithHooks`). A session still open after the wait (interactive) is not resumed in a
 * second process (Claude does not guard against that): the goal is paused with the reason instead.
 * Either way a `goal.handoff` event says which path was taken, and the log says so too.
 */
import type { Publish } from '../events/index.ts';
import type { HandoffInput } from './hook-decision.ts';
import type { GoalsRepository } from './types.ts';

export interface StopHandoffOperations {
  /** True once the session's process has exited (pid when known, else the session's liveness). Must not throw. */
  exited(sessionId: string, pid: number | null): boolean;
  /**
   * Delivers the continuation to the live session through its own extension or plugin (the inbox), when
   * one listens there; false when none does or it did not take it. Must not throw. Default: never.
   */
  deliverLive?(input: { harness: HandoffInput['harness']; sessionId: string; prompt: string }): Promise<boolean>;
  /** Whether the harness can take a next turn headless with Muster's hooks (its adapter's `headless.continueWithHooks`). */
  canContinue(harness: HandoffInput['harness']): boolean;
  /** Starts the next turn headless with Muster's hooks (`claude --resume <id> -p <prompt> …`), detached. Must not throw. */
  resumeHeadless(input: { harness: HandoffInput['harness']; sessionId: string; prompt: string; cwd: string | null }): Promise<{ ok: true } | { ok: false; error: string }>;
  /** Resolves after `ms`. Default: setTimeout (unref'd). */
  sleep?(ms: number): Promise<void>;
}

export interface StopHandoffOptions {
  repo: GoalsRepository;
  ops: StopHandoffOperations;
  /** `goal.updated|handoff`. Must not throw. */
  publish: Publish;
  /** How long to wait for the stopped process to exit before treating the session as interactive, ms. Default: 15000. */
  exitWaitMs?: number;
  clock?: () => number;
  log?(line: string): void;
}

const POLL_MS = 100;

const WHY: Record<HandoffInput['why'], string> = {
  block_cap: "the harness's cap on consecutive Stop-hook blocks was reached",
  hook_gone: 'the Stop hook was gone before the audit finished (hook timeout or daemon unreachable)',
};

export function createStopHandoff(o: StopHandoffOptions): (input: HandoffInput) => Promise<void> {
  const clock = o.clock ?? Date.now;
  const log = o.log ?? (() => {});
  const sleep = o.ops.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref()));
  const exitWait = o.exitWaitMs ?? 15_000;

  async function pause(input: HandoffInput, detail: string): Promise<void> {
    const g = await o.repo.getBySession(input.sessionId);
    if (!g || g.status !== 'active') return;
    const now = new Date(clock()).toISOString();
    const next = { ...g, status: 'paused' as const, reason: `${WHY[input.why]}; ${detail}`, updatedAt: now };
    if (await o.repo.update(next, 'active')) o.publish('goal.updated', next);
    o.publish('goal.handoff', { goalId: g.id, sessionId: g.sessionId, why: input.why, via: 'paused', detail: next.reason });
    log(`[goals] ${g.id} paused: ${next.reason}`);
  }

  return async (input) => {
    if (await (o.ops.deliverLive?.({ harness: input.harness, sessionId: input.sessionId, prompt: input.prompt }) ?? false)) {
      const g = await o.repo.getBySession(input.sessionId);
      if (g) o.publish('goal.handoff', { goalId: g.id, sessionId: g.sessionId, why: input.why, via: 'inbox', detail: `${WHY[input.why]}; sent through the session's Muster extension` });
      log(`[goals] ${input.sessionId}: ${WHY[input.why]}; continuation sent through the session's extension`);
      return;
    }
    if (!o.ops.canContinue(input.harness)) return pause(input, `no other way to send ${input.harness} the next turn; answer in the session, then muster goal resume`);
    const deadline = clock() + exitWait;
    while (!o.ops.exited(input.sessionId, input.pid)) {
      if (clock() >= deadline) return pause(input, 'the session is still open, so it was not resumed in a second process; send the next prompt there, then muster goal resume');
      await sleep(POLL_MS);
    }
    const g = await o.repo.getBySession(input.sessionId);
    // Paused or cleared meanwhile: the operator's word wins.
    if (!g || g.status !== 'active') return;
    const sent = await o.ops.resumeHeadless({ harness: input.harness, sessionId: input.sessionId, prompt: input.prompt, cwd: input.cwd });
    if (!sent.ok) return pause(input, `${input.harness} --resume failed: ${sent.error}`);
    const how = `continued headless with ${input.harness} --resume ${g.sessionId}`;
    o.publish('goal.handoff', { goalId: g.id, sessionId: g.sessionId, why: input.why, via: 'resume', detail: `${WHY[input.why]}; ${how}` });
    log(`[goals] ${g.id}: ${WHY[input.why]}; ${how}`);
  };
}
