/**
 * OpenCode: one SQLite store per user (`$XDG_DATA_HOME/opencode/opencode.db`), no lock or pid file per
 * session; status from its HTTP server where one runs, and from Muster's TUI plugin.
 */
import { isAbsolute, join } from 'node:path';
import { defineHarness } from '../adapter.ts';
import { isOpenCodeId } from './ids.ts';
import { userHome } from '../homes.ts';
import { opencodeHeadless, opencodeResumeArgv, opencodeSend } from './commands.ts';
import { opencodeHooks } from './hooks.ts';
import { opencodeInstallTarget } from './install.ts';
import { opencodeStartArgs, planOpencode } from './launch.ts';

/** An XDG base directory: the variable when it is absolute (the spec ignores relative ones), else the default. */
function xdg(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const v = env[name]?.trim();
  return v && isAbsolute(v) ? v : join(userHome(env), fallback);
}

export const opencode = defineHarness({
  name: 'opencode',
  label: 'OpenCode',
  bin: 'opencode',
  display: {
    mark: 'OC',
    color: '#2563eb',
    critters: [['penguin', '🐧'], ['whale', '🐳'], ['dolphin', '🐬'], ['turtle', '🐢'], ['seal', '🦭'], ['shark', '🦈']],
    dot: '🔵',
  },
  mcpClientNames: [/^opencode/i],
  homes: (env) => ({ data: join(xdg(env, 'XDG_DATA_HOME', '.local/share'), 'opencode'), config: join(xdg(env, 'XDG_CONFIG_HOME', '.config'), 'opencode') }),
  isValidId: isOpenCodeId,
  async createSource(d) {
    const { createOpenCodeSource } = await import('./discovery/source.ts');
    return createOpenCodeSource({ home: d.homes.data, env: d.env, proc: d.proc, index: d.index, git: d.git, cold: d.cold });
  },
  resumeArgv: opencodeResumeArgv,
  send: opencodeSend,
  planLaunch: planOpencode,
  // OpenCode 1.18.33's bash tool environment (observed).
  processEnv: ['OPENCODE', 'OPENCODE_PID', 'AGENT'],
  startArgs: opencodeStartArgs,
  hooks: opencodeHooks,
  installTarget: opencodeInstallTarget,
  headless: opencodeHeadless,
  // `opencode run -m` takes provider/model; the session records the model's id alone, so without a
  // provider the auditor runs on the user's configured default model.
  defaultAuditSpec: (s) => `cli:opencode${s.model?.includes('/') ? `/${s.model}` : ''}`,
});
