/**
 * Goals over HTTP (the board and the CLI use the same routes):
 *   GET    /api/goals[?status=&limit=]          → { ok, goals }
 *   GET    /api/goals/:ref                       → { ok, goal }            ref = gol_… or a session id
 *   GET    /api/goals/check?sessionId=&harness= → { ok, drivable, message?, fix?, note? }   before setting one
 *   POST   /api/goals { sessionId, objective, harness?, tokenBudget?, maxTurns?, auditor?, drivenBy? } → { ok, goal, note }
 *          409 goal_not_drivable when the live session cannot be driven (no turn-end report); drivenBy:
 *          'caller' when the caller drives the turns itself (muster goal run)
 *   POST   /api/goals/:ref/pause                 → { ok, goal }
 *   POST   /api/goals/:ref/resume { prompt?, tokenBudget?, maxTurns? } → { ok, goal }
 *   DELETE /api/goals/:ref  (or POST …/clear)    → { ok, cleared: <goal id> | null }   always works
 *   POST   /api/goals/turn { sessionId, harness, lastAssistantText, tokens?, model?, cwd?, outcome? }
 *          → { ok, decision: 'continue', prompt, limits } | { ok, decision: 'stop', reason, goal }
 */
import type { Context } from 'hono';
import { MusterError } from '../../errors/index.ts';
import { MAX_OBJECTIVE, type Goals, type TurnFinished } from '../../goals/index.ts';
import type { Drivability } from '../../daemon/goal-drive-check.ts';
import { type Harness } from '../../core/session.ts';
import { readJsonObject } from '../body.ts';
import { bodySessionId, harnessIn, optHarness, optNonNegative, optOneOf, optText, queryInt } from '../input.ts';
import type { App, AppEnv } from '../env.ts';

export interface GoalRouteOptions {
  goals: Goals;
  /** The harness of a known session (so the board need not send it). */
  harnessOf?(sessionId: string): Harness | undefined | Promise<Harness | undefined>;
  /** Whether a goal on the session can be driven. Default: always. */
  drivable?(sessionId: string, harness: Harness): Promise<Drivability>;
}

const TURN_OUTCOMES: readonly NonNullable<TurnFinished['outcome']>[] = ['completed', 'interrupted', 'failed'];

async function readTurn(c: Context<AppEnv>): Promise<TurnFinished> {
  const b = await readJsonObject(c, 1024 * 1024);
  const harness = harnessIn(b.harness);
  return {
    sessionId: bodySessionId(b.sessionId), harness, lastAssistantText: optText(b.lastAssistantText, 'lastAssistantText', 1024 * 1024) ?? null,
    tokens: optNonNegative(b.tokens, 'tokens') ?? 0,
    model: optText(b.model, 'model', 200) ?? null, cwd: optText(b.cwd, 'cwd', 4096) ?? null,
    outcome: optOneOf(b.outcome, TURN_OUTCOMES, 'outcome', 'invalid_body') ?? 'completed',
    delivers: b.delivers === undefined ? true : b.delivers === true,
  };
}

export function goalRoutes(opts: GoalRouteOptions) {
  const { goals } = opts;
  return (app: App) => {
    app.get('/api/goals', async (c) => {
      const q = c.req.query();
      return c.json({ ok: true, goals: await goals.list({ status: q.status, limit: queryInt(q.limit, 'limit', 1, 1000) }) });
    });
    app.post('/api/goals/turn', async (c) => {
      const d = await goals.onTurnFinished(await readTurn(c));
      return c.json({ ok: true, ...d });
    });
    app.get('/api/goals/check', async (c) => {
      const sessionId = bodySessionId(c.req.query('sessionId'));
      const harness = optHarness(c.req.query('harness')) ?? (await opts.harnessOf?.(sessionId));
      if (!harness) throw new MusterError('session_not_found', `no session ${sessionId} is known; send its harness too`);
      const d = (await opts.drivable?.(sessionId, harness)) ?? { ok: true, note: null };
      return c.json(d.ok ? { ok: true, drivable: true, note: d.note } : { ok: true, drivable: false, message: d.message, fix: d.fix });
    });
    app.post('/api/goals', async (c) => {
      const b = await readJsonObject(c);
      const sessionId = bodySessionId(b.sessionId);
      const harness = optHarness(b.harness) ?? (await opts.harnessOf?.(sessionId));
      if (!harness) throw new MusterError('session_not_found', `no session ${sessionId} is known; send its harness too`);
      if (b.drivenBy !== undefined && b.drivenBy !== 'caller') throw new MusterError('invalid_body', "drivenBy must be 'caller' (the caller drives the turns) or absent");
      // A goal nothing would advance is refused with what to run, never accepted silently.
      const d = b.drivenBy === 'caller' ? { ok: true as const, note: null } : ((await opts.drivable?.(sessionId, harness)) ?? { ok: true as const, note: null });
      if (!d.ok) throw new MusterError('goal_not_drivable', d.message, { details: { fix: d.fix } });
      const goal = await goals.set({ sessionId, harness, objective: optText(b.objective, 'objective', MAX_OBJECTIVE) ?? '', tokenBudget: b.tokenBudget, maxTurns: b.maxTurns, auditor: optText(b.auditor, 'auditor', 200) });
      return c.json({ ok: true, goal, note: d.note }, 201);
    });
    app.get('/api/goals/:ref', async (c) => c.json({ ok: true, goal: await goals.get(c.req.param('ref')) }));
    app.post('/api/goals/:ref/pause', async (c) => c.json({ ok: true, goal: await goals.pause(c.req.param('ref')) }));
    app.post('/api/goals/:ref/resume', async (c) => {
      const hasBody = (c.req.header('content-length') ?? '0') !== '0';
      const b = hasBody ? await readJsonObject(c) : {};
      const goal = await goals.resume(c.req.param('ref'), { prompt: optText(b.prompt, 'prompt', MAX_OBJECTIVE), tokenBudget: b.tokenBudget, maxTurns: b.maxTurns });
      return c.json({ ok: true, goal });
    });
    const clear = async (c: Context<AppEnv>) => c.json({ ok: true, cleared: await goals.clear(c.req.param('ref') ?? '') });
    app.delete('/api/goals/:ref', clear);
    app.post('/api/goals/:ref/clear', clear);
  };
}
