/**
 * GitHub Copilot CLI: one folder per session under `$COPILOT_HOME/session-state/<id>/` (workspace.yaml,
 * an append-only events.jsonl), liveness from `inuse.<pid>.lock` and the flock on its `.hold` file,
 * busy/idle from open-sessions-state.json. Command hooks and MCP per process through `--plugin-dir`
 * and `--additional-mcp-config`; `agentStop` is the turn end a goal continues through.
 */
import { join } from 'node:path';
import { defineHarness } from '../adapter.ts';
import { isUuid } from '../../core/ids.ts';
import { dirFromEnv, userHome } from '../homes.ts';
import { copilotHeadless, copilotResumeArgv, copilotSend } from './commands.ts';
import { copilotHooks } from './hooks.ts';
import { copilotInstallTarget } from './install.ts';
import { copilotStartArgs, planCopilot } from './launch.ts';

/** `$COPILOT_HOME`, else `~/.copilot`: sessions, settings.json and mcp-config.json all live there. */
const copilotHome = (env: NodeJS.ProcessEnv): string => dirFromEnv(env, 'COPILOT_HOME', join(userHome(env), '.copilot'));

export const copilot = defineHarness({
  name: 'copilot',
  label: 'GitHub Copilot CLI',
  bin: 'copilot',
  display: {
    mark: 'CP',
    color: '#0891b2',
    critters: [['pilot', '🧑‍✈️'], ['plane', '✈️'], ['helicopter', '🚁'], ['parachute', '🪂'], ['kite', '🪁'], ['balloon', '🎈']],
    dot: '⚫',
  },
  // `initialize` clientInfo.name (and the user agent `copilot-cli/<version>`), observed with 1.0.102.
  mcpClientNames: [/^copilot-cli/i],
  homes(env) {
    const dir = copilotHome(env);
    return { data: dir, config: dir };
  },
  isValidId: isUuid,
  async createSource(d) {
    const { createCopilotSource } = await import('./discovery/index.ts');
    return createCopilotSource({ home: d.homes.data, proc: d.proc, index: d.index, git: d.git });
  },
  resumeArgv: copilotResumeArgv,
  send: copilotSend,
  planLaunch: planCopilot,
  // Copilot 1.0.102's hook environment names its loader (observed).
  processEnv: ['COPILOT_LOADER_PID'],
  startArgs: copilotStartArgs,
  hooks: copilotHooks,
  installTarget: copilotInstallTarget,
  headless: copilotHeadless(copilotHome),
  defaultAuditSpec: (s) => `cli:copilot${s.model ? `/${s.model}` : ''}`,
});
