/**
 * New sessions and the worktrees made for them:
 *   POST /api/sessions/new { harness, cwd, worktree?, name?, prompt?, goal?: { objective, tokenBudget?, maxTurns?, auditor? },
 *                            focus?, waitSeconds? }
 *        → 201 { ok, outcome: 'started', launchId, sessionId|null, session|null, cwd, pane, manager, worktree|null, goal|null, goalPending, focus|null }
 *        400 invalid_directory / invalid_branch / not_a_repository / invalid_argument, 409 branch_in_use / worktree_exists /
 *        harness_unavailable / goal_not_drivable, 413 a prompt over 32 000 characters (or a body over 64 KiB),
 *        503 no_pane_manager (with the command to run by hand)
 *   GET  /api/worktrees → { ok, worktrees: [{ path, repo, branch, newBranch, createdAt, exists, dirty, sessions }] }
 * Types are checked here; what the text may hold, the directory and the branch, by the launcher.
 */
import { MusterError } from '../../errors/index.ts';
import type { Launcher, NewGoal, NewSessionRequest } from '../../launcher/index.ts';
import type { Worktrees } from '../../worktrees/index.ts';
import { readJsonObject } from '../body.ts';
import { harnessIn, optBoolean, optInteger, optString, optText } from '../input.ts';
import type { App } from '../env.ts';

export interface LauncherRouteOptions {
  launcher: Launcher;
  worktrees: Worktrees;
}

/** Any length: the launcher answers 413 past its own limit; the body limit comes first anyway. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

function goalIn(v: unknown): NewGoal | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new MusterError('invalid_body', 'goal must be { "objective": "…", "tokenBudget"?, "maxTurns"?, "auditor"? }');
  const g = v as Record<string, unknown>;
  const objective = optText(g.objective, 'goal.objective', UNBOUNDED);
  if (objective === undefined) throw new MusterError('invalid_body', 'goal.objective is missing');
  return { objective, tokenBudget: g.tokenBudget, maxTurns: g.maxTurns, auditor: optString(g.auditor, 'goal.auditor', 200) };
}

function requestOf(b: Record<string, unknown>): NewSessionRequest {
  if (typeof b.cwd !== 'string') throw new MusterError('invalid_body', 'send { "harness": "…", "cwd": "<absolute directory>", … }');
  const wait = optInteger(b.waitSeconds, 'waitSeconds');
  if (wait !== undefined && wait > 20) throw new MusterError('invalid_body', 'waitSeconds must be from 0 to 20');
  return {
    harness: harnessIn(b.harness),
    cwd: b.cwd,
    worktree: optText(b.worktree, 'worktree', UNBOUNDED),
    name: optText(b.name, 'name', UNBOUNDED),
    prompt: optText(b.prompt, 'prompt', UNBOUNDED),
    goal: goalIn(b.goal),
    focus: optBoolean(b.focus, 'focus'),
    waitSeconds: wait,
  };
}

export function launcherRoutes(opts: LauncherRouteOptions) {
  return (app: App) => {
    app.post('/api/sessions/new', async (c) => {
      const answer = await opts.launcher.start(requestOf(await readJsonObject(c)));
      return c.json({ ok: true, ...answer }, 201);
    });
    app.get('/api/worktrees', async (c) => c.json({ ok: true, worktrees: await opts.worktrees.list() }));
  };
}
