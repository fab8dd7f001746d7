/**
 * Wiring of `muster new` (the launcher) and its worktrees, kept out of createDaemon's body: the
 * launcher opens panes through the same pane service as resume, runs the harness with the daemon's
 * environment, sets goals through the goals capability and learns session ids from the launch
 * service (`bound`, passed to createLaunchService as onBound).
 */
import type { EventBus } from '../events/index.ts';
import type { Goals } from '../goals/index.ts';
import type { Actions, Hub, PaneOps } from '../hub/index.ts';
import { createLauncher, type Launcher } from '../launcher/index.ts';
import { musterCliArgv } from '../launch/hook-argv.ts';
import { whichBin } from '../launch/installed.ts';
import { adapterFor } from '../harnesses/registry.ts';
import type { Harness } from '../core/session.ts';
import type { LaunchRecord } from '../launch/types.ts';
import { launcherRoutes } from '../server/routes/launcher.ts';
import type { RouteModule } from '../server/env.ts';
import type { Store } from '../store/index.ts';
import { createGitOperations, createWorktrees, sessionsUnder, type Worktrees } from '../worktrees/index.ts';
import { launchDrivable } from './goal-drive-check.ts';

export interface NewSessionsOptions {
  env: NodeJS.ProcessEnv;
  musterHome: string;
  store: Store;
  hub: Hub;
  bus: EventBus;
  panes: PaneOps | null;
  actions: Actions;
  goals: Goals;
  log(line: string): void;
}

export interface NewSessions {
  launcher: Launcher;
  worktrees: Worktrees;
  routes: RouteModule;
}

/** Whether a harness's command is on PATH in `env` (the daemon's: where `muster new` runs it). */
export const installedOn = (env: NodeJS.ProcessEnv) => (h: Harness): boolean => whichBin(adapterFor(h).bin, env) !== null;

/** The launch service's onBound, before the launcher exists (it is made after the goals it needs). */
export function lateBound(): { onBound(r: LaunchRecord): Promise<void>; set(l: Launcher): void } {
  let launcher: Launcher | null = null;
  return { onBound: async (r) => launcher?.bound(r), set: (l) => void (launcher = l) };
}

export function createNewSessions(o: NewSessionsOptions): NewSessions {
  const worktrees = createWorktrees({ repo: o.store.worktrees, git: createGitOperations({ env: o.env }), sessionsIn: (path) => sessionsUnder(o.hub.list(), path) });
  const launcher = createLauncher({
    env: o.env,
    musterHome: o.musterHome,
    panes: o.panes,
    worktrees,
    goals: o.goals,
    goalReadiness: (h) => launchDrivable(h, o.env),
    session: (id) => {
      const s = o.hub.get(id);
      return s ? o.actions.decorate(s) : undefined;
    },
    cliArgv: musterCliArgv(),
    log: o.log,
  });
  o.bus.on('launch.ended', (e) => launcher.ended(e.data.launch));
  return { launcher, worktrees, routes: launcherRoutes({ launcher, worktrees }) };
}
