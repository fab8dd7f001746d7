/**
 * Gemini CLI: one JSONL chat file per session under `<gemini home>/tmp/<project slug>/chats/` (a
 * resume adds a second file with the same session id), the project's directory in `.project_root`
 * beside it, and nothing on disk that says a session is live: live sessions and their status come
 * from Muster's hooks (an extension installed once; the CLI has no per-process settings) and from
 * the process table. The loader process ignores SIGTERM; its child, the worker, is the agent.
 */
import { defineHarness } from '../adapter.ts';
import { isUuid } from '../../core/ids.ts';
import { geminiHeadless, geminiResumeArgv, geminiSend } from './commands.ts';
import { geminiHome } from './homes.ts';
import { geminiHooks } from './hooks.ts';
import { geminiInstallTarget } from './install.ts';
import { geminiStartArgs, planGemini } from './launch.ts';

export const gemini = defineHarness({
  name: 'gemini',
  label: 'Gemini CLI',
  bin: 'gemini',
  display: {
    mark: 'GM',
    // The warm end of Gemini's blue-to-rose mark: OpenCode already wears the blue.
    color: '#d6336c',
    // The constellation's twins and their sky.
    critters: [['star', '🌟'], ['comet', '☄️'], ['moon', '🌙'], ['planet', '🪐'], ['galaxy', '🌌'], ['crystal', '🔮']],
    dot: '🔴',
  },
  mcpClientNames: [/^gemini-cli/i],
  homes(env) {
    const home = geminiHome(env);
    return { data: home, config: home };
  },
  isValidId: isUuid,
  async createSource(d) {
    const { createGeminiSource } = await import('./discovery/source.ts');
    return createGeminiSource({ home: d.homes.data, proc: d.proc, index: d.index, git: d.git, sightings: d.sightings });
  },
  resumeArgv: geminiResumeArgv,
  send: geminiSend,
  planLaunch: planGemini,
  // Gemini CLI's worker and everything it starts carry this; inherited, a new gemini would not relaunch itself.
  processEnv: ['GEMINI_CLI_NO_RELAUNCH'],
  startArgs: geminiStartArgs,
  hooks: geminiHooks,
  installTarget: geminiInstallTarget,
  headless: geminiHeadless,
  defaultAuditSpec: (s) => `cli:gemini${s.model ? `/${s.model}` : ''}`,
});
