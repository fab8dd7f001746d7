/**
 * Starts new agent sessions. The order is the contract: everything that can be refused is checked
 * before anything happens (text, directory, harness on PATH, goal drivable, a pane manager to open
 * in); then the worktree is made (the only lasting side effect, and never undone: Muster does not
 * delete worktrees), the launch's start file written, the goal set or left pending, and the pane
 * opened running `muster <harness> --name NAME` — argv, never a shell. A pane that fails to open takes
 * the start file and the goal back with it.
 */
import { randomUUID } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { MusterError } from '../errors/index.ts';
import { adapterFor } from '../harnesses/registry.ts';
import { paneLabel, shellLine, type PaneOps } from '../hub/index.ts';
import type { Goal, Goals } from '../goals/index.ts';
import type { Session } from '../core/session.ts';
import { newLaunchId } from '../launch/launch-id.ts';
import { START_FILE_ENV, startEnv, writeStartSpec, type StartSpec } from '../launch/start-spec.ts';
import type { LaunchRecord } from '../launch/types.ts';
import { branchName, type Worktrees } from '../worktrees/index.ts';
import { createPendingLaunches } from './pending.ts';
import { harnessReadiness, type Readiness } from './readiness.ts';
import { firstPrompt, newGoal, sessionName } from './request.ts';
import type { GoalReadiness, NewGoal, NewSessionAnswer, NewSessionRequest } from './types.ts';

/** The OS-facing steps, each with a real default. */
export interface LauncherOperations {
  isDirectory(path: string): boolean;
  /** Default: harnessReadiness (command on PATH, plan requirements). */
  readiness(harness: NewSessionRequest['harness'], env: NodeJS.ProcessEnv, musterHome: string): Readiness;
  /** Writes the start file; returns its path. Default: writeStartSpec. */
  writeStart(musterHome: string, spec: StartSpec): string;
  /** Removes a launch's directory (its pane never opened). Default: rm -r. */
  removeStart(path: string): void;
  /** A fresh UUID for harnesses that take a new session's id. Default: crypto.randomUUID. */
  newId(): string;
}

export interface LauncherOptions {
  /** The daemon's environment: the pane's harness runs with it (it is where the daemon discovers sessions). */
  env: NodeJS.ProcessEnv;
  musterHome: string;
  /** null: no pane manager configured. */
  panes: PaneOps | null;
  worktrees: Worktrees;
  goals: Pick<Goals, 'set' | 'clear' | 'forSession'>;
  /** Whether a goal on a new session of this harness would be driven (its turn-end report is wired). */
  goalReadiness(harness: NewSessionRequest['harness']): GoalReadiness;
  /** The session as the hub lists it. */
  session(id: string): Session | undefined;
  /** argv that runs this Muster's CLI (node, its flags, the entry script); `<harness> --name NAME` follows. */
  cliArgv: string[];
  ops?: Partial<LauncherOperations>;
  clock?: () => number;
  log?(line: string): void;
}

export interface Launcher {
  start(req: NewSessionRequest): Promise<NewSessionAnswer>;
  /** A launch got its session (launch/service.ts calls this; awaited before the goal driver runs). Never throws. */
  bound(launch: LaunchRecord): Promise<void>;
  /** A launch's harness exited. */
  ended(launch: LaunchRecord): void;
}

/** Longest wait for a session id, s: an HTTP client (the CLI: 30 s) must not give up first. */
const MAX_WAIT_S = 20;

export function createLauncher(opts: LauncherOptions): Launcher {
  const ops: LauncherOperations = {
    isDirectory: (p) => {
      try {
        return statSync(p).isDirectory();
      } catch {
        return false;
      }
    },
    readiness: harnessReadiness,
    writeStart: writeStartSpec,
    removeStart: (path) => rmSync(dirname(path), { recursive: true, force: true }),
    newId: randomUUID,
    ...opts.ops,
  };
  const clock = opts.clock ?? Date.now;
  const pending = createPendingLaunches();
  const setGoal = (harness: NewSessionRequest['harness'], sessionId: string) => (g: NewGoal): Promise<Goal> =>
    opts.goals.set({ sessionId, harness, objective: g.objective, tokenBudget: g.tokenBudget, maxTurns: g.maxTurns, auditor: g.auditor });

  /** Everything that can be refused, before anything happens. */
  async function check(req: NewSessionRequest) {
    const a = adapterFor(req.harness);
    if (!a.startArgs) throw new MusterError('unsupported', `Muster cannot start ${a.label} sessions`);
    const name = sessionName(req.name);
    const goal = newGoal(req.goal);
    if (req.worktree !== undefined) branchName(req.worktree);
    const prompt = firstPrompt(req.prompt) ?? goal?.objective ?? null;
    if (!req.cwd.startsWith('/') || !ops.isDirectory(req.cwd)) throw new MusterError('invalid_directory', `${JSON.stringify(req.cwd)} is not an existing directory`);
    const ready = ops.readiness(req.harness, opts.env, opts.musterHome);
    if (!ready.ok) throw new MusterError('harness_unavailable', ready.message, { details: ready.fix ? { fix: ready.fix } : undefined });
    if (goal) {
      const g = opts.goalReadiness(req.harness);
      if (!g.ok) throw new MusterError('goal_not_drivable', g.message, { details: { fix: g.fix } });
    }
    const opener = opts.panes ? await opts.panes.opener() : null;
    if (!opener) {
      const command = shellLine(req.cwd, ['muster', req.harness, ...(name ? ['--name', name] : [])]);
      throw new MusterError('no_pane_manager', `no tmux or herdr server is running to open the session in; start one (e.g. \`tmux new -d\`) and retry, or run it by hand: ${command}`, { details: { command } });
    }
    return { adapter: a, startArgs: a.startArgs.bind(a), name, goal, prompt, opener };
  }

  return {
    async start(req) {
      const c = await check(req);
      const worktree = req.worktree === undefined ? null : await opts.worktrees.create(req.cwd, req.worktree);
      const cwd = worktree?.cwd ?? req.cwd;
      const launchId = newLaunchId(clock());
      const start = c.startArgs({ prompt: c.prompt, newId: ops.newId() });
      const file = ops.writeStart(opts.musterHome, { version: 1, launchId, harness: req.harness, cwd, args: start.args, env: startEnv(opts.env, opts.musterHome) });
      let goal: Goal | null = null;
      let opened: Awaited<ReturnType<typeof c.opener.open>>;
      try {
        if (c.goal && start.sessionId) goal = await setGoal(req.harness, start.sessionId)(c.goal);
        else if (!start.sessionId) pending.add(launchId, req.harness, c.goal, clock());
        const argv = ['env', `${START_FILE_ENV}=${file}`, ...opts.cliArgv, req.harness, ...(c.name ? ['--name', c.name] : [])];
        const label = paneLabel(c.name ?? '', worktree ? `${req.harness} ${worktree.record.branch}` : `${req.harness} new`);
        opened = await c.opener.open({ cwd, argv, label }).catch((e: unknown) => {
          throw new MusterError('pane_failed', `${c.opener.kind} could not open a pane: ${(e as Error).message}`, { cause: e });
        });
      } catch (e) {
        // Nothing runs: take back what was prepared for it (the worktree stays; Muster never removes one).
        ops.removeStart(file);
        pending.drop(launchId);
        if (goal && start.sessionId) await opts.goals.clear(start.sessionId).catch(() => null);
        throw e;
      }
      // The pane runs: from here on nothing is taken back.
      const focus = req.focus && opts.panes ? await focusPane(opts.panes, opened.pane) : null;
      const waitMs = Math.min(Math.max(req.waitSeconds ?? 0, 0), MAX_WAIT_S) * 1000;
      const sessionId = start.sessionId ?? (await pending.wait(launchId, waitMs));
      // Set meanwhile by bound(), when the session's first hook event came while we waited.
      if (sessionId && c.goal && !goal) goal = (await opts.goals.forSession(sessionId).catch(() => undefined)) ?? null;
      return {
        outcome: 'started', launchId, harness: req.harness, sessionId, session: sessionId ? (opts.session(sessionId) ?? null) : null, name: c.name, cwd,
        pane: opened.pane, manager: c.opener.kind, worktree: worktree?.record ?? null, goal, goalPending: c.goal !== null && sessionId === null, focus,
      };
    },
    async bound(launch) {
      if (!launch.sessionId) return;
      const sessionId = launch.sessionId;
      try {
        await pending.bind(launch.id, launch.harness, sessionId, setGoal(launch.harness, sessionId));
      } catch (e) {
        opts.log?.(`[launcher] the goal of launch ${launch.id} could not be set on ${sessionId}: ${(e as Error).message}`);
      }
    },
    ended(launch) {
      pending.drop(launch.id);
    },
  };
}

async function focusPane(panes: PaneOps, pane: NewSessionAnswer['pane']): Promise<{ outcome: string; message?: string }> {
  try {
    const r = await panes.focus(pane);
    return r.outcome === 'no_client' ? { outcome: r.outcome, message: `no terminal is attached; attach with: ${r.hint}` } : { outcome: r.outcome };
  } catch (e) {
    return { outcome: 'failed', message: (e as Error).message };
  }
}
