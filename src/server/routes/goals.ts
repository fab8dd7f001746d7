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
import { bodySessionId, harnessIn, optHarness, optNonNegative, optOneOf, optText, queryHost, queryInt } from '../input.ts';
import { isFleetCommand, ownerOf, relay, type FleetView } from '../fleet-routing.ts';
import type { Goal } from '../../goals/index.ts';
import type { App, AppEnv } from '../env.ts';

export interface GoalRouteOptions {
  goals: Goals;
  /** The harness of a known session (so the board need not send it). */
  harnessOf?(sessionId: string): Harness | undefined | Promise<Harness | undefined>;
  /** Whether a goal on the session can be driven. Default: always. */
  drivable?(sessionId: string, harness: Harness): Promise<Drivability>;
  /** In a fleet: other hosts' goals and sessions, and running a goal command on their owner. */
  fleet?: FleetView;
  /** True when this host has a session of that id (a local session wins over a remote one of the same id). */
  localSession?(sessionId: string): Promise<boolean>;
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
  const { goals, fleet } = opts;
  /** Another host's goal named by `ref` (a goal id or its session's id), unless this host has one. */
  const remoteGoal = async (c: Context<AppEnv>, ref: string): Promise<Goal | undefined> => {
    if (!fleet || isFleetCommand(c)) return undefined;
    const g = fleet.goal(ref);
    if (!g) return undefined;
    const mine = await goals.get(ref).then(() => true, () => false);
    return mine ? undefined : g;
  };
  return (app: App) => {
    app.get('/api/goals', async (c) => {
      const q = c.req.query();
      const limit = queryInt(q.limit, 'limit', 1, 1000);
      const host = queryHost(q.host);
      const name = fleet?.localName() ?? null;
      const local = host === undefined || (name !== null && host === name) ? (await goals.list({ status: q.status, limit })).map((g) => (name ? { ...g, host: name } : g)) : [];
      if (!fleet || name === null) return c.json({ ok: true, goals: local });
      const remote = fleet.goals().filter((g) => (host === undefined || g.host === host) && (q.status === undefined || g.status === q.status));
      return c.json({ ok: true, goals: [...local, ...remote].sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, limit ?? 200) });
    });
    app.post('/api/goals/turn', async (c) => {
      const d = await goals.onTurnFinished(await readTurn(c));
      return c.json({ ok: true, ...d });
    });
    app.get('/api/goals/check', async (c) => {
      const sessionId = bodySessionId(c.req.query('sessionId'));
      const other = fleet && !(await opts.localSession?.(sessionId)) ? fleet.session(sessionId) : undefined;
      if (other) return c.json({ ok: true, drivable: true, note: `this session runs on host "${other.host}", which checks whether the goal can be driven when it is set` });
      const harness = optHarness(c.req.query('harness')) ?? (await opts.harnessOf?.(sessionId));
      if (!harness) throw new MusterError('session_not_found', `no session ${sessionId} is known; send its harness too`);
      const d = (await opts.drivable?.(sessionId, harness)) ?? { ok: true, note: null };
      return c.json(d.ok ? { ok: true, drivable: true, note: d.note } : { ok: true, drivable: false, message: d.message, fix: d.fix });
    });
    app.post('/api/goals', async (c) => {
      const b = await readJsonObject(c);
      const sessionId = bodySessionId(b.sessionId);
      const other = fleet && !isFleetCommand(c) && !(await opts.localSession?.(sessionId)) ? fleet.session(sessionId) : undefined;
      const owner = ownerOf(other);
      if (fleet && owner) {
        const args: Record<string, unknown> = { sessionId };
        for (const k of ['objective', 'harness', 'tokenBudget', 'maxTurns', 'auditor']) if (Object.hasOwn(b, k)) args[k] = b[k];
        return relay(c, fleet, owner, 'goal.set', args);
      }
      const harness = optHarness(b.harness) ?? (await opts.harnessOf?.(sessionId));
      if (!harness) throw new MusterError('session_not_found', `no session ${sessionId} is known; send its harness too`);
      if (b.drivenBy !== undefined && b.drivenBy !== 'caller') throw new MusterError('invalid_body', "drivenBy must be 'caller' (the caller drives the turns) or absent");
      // A goal nothing would advance is refused with what to run, never accepted silently.
      const d = b.drivenBy === 'caller' ? { ok: true as const, note: null } : ((await opts.drivable?.(sessionId, harness)) ?? { ok: true as const, note: null });
      if (!d.ok) throw new MusterError('goal_not_drivable', d.message, { details: { fix: d.fix } });
      const goal = await goals.set({ sessionId, harness, objective: optText(b.objective, 'objective', MAX_OBJECTIVE) ?? '', tokenBudget: b.tokenBudget, maxTurns: b.maxTurns, auditor: optText(b.auditor, 'auditor', 200) });
      return c.json({ ok: true, goal, note: d.note }, 201);
    });
    app.get('/api/goals/:ref', async (c) => c.json({ ok: true, goal: (await remoteGoal(c, c.req.param('ref'))) ?? (await goals.get(c.req.param('ref'))) }));
    app.post('/api/goals/:ref/pause', async (c) => {
      const owner = ownerOf(await remoteGoal(c, c.req.param('ref')));
      if (fleet && owner) return relay(c, fleet, owner, 'goal.pause', { ref: c.req.param('ref') });
      return c.json({ ok: true, goal: await goals.pause(c.req.param('ref')) });
    });
    app.post('/api/goals/:ref/resume', async (c) => {
      const hasBody = (c.req.header('content-length') ?? '0') !== '0';
      const b = hasBody ? await readJsonObject(c) : {};
      const owner = ownerOf(await remoteGoal(c, c.req.param('ref')));
      if (fleet && owner) {
        const args: Record<string, unknown> = { ref: c.req.param('ref') };
        for (const k of ['prompt', 'tokenBudget', 'maxTurns']) if (Object.hasOwn(b, k)) args[k] = b[k];
        return relay(c, fleet, owner, 'goal.resume', args);
      }
      const goal = await goals.resume(c.req.param('ref'), { prompt: optText(b.prompt, 'prompt', MAX_OBJECTIVE), tokenBudget: b.tokenBudget, maxTurns: b.maxTurns });
      return c.json({ ok: true, goal });
    });
    const clear = async (c: Context<AppEnv>) => {
      const owner = ownerOf(await remoteGoal(c, c.req.param('ref') ?? ''));
      if (fleet && owner) return relay(c, fleet, owner, 'goal.clear', { ref: c.req.param('ref') ?? '' });
      return c.json({ ok: true, cleared: await goals.clear(c.req.param('ref') ?? '') });
    };
    app.delete('/api/goals/:ref', clear);
    app.post('/api/goals/:ref/clear', clear);
  };
}
