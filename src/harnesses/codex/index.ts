/**
 * Codex: one rollout JSONL per thread under `$CODEX_HOME/sessions/YYYY/MM/DD/`, a writer lock per live
 * thread (`thread-writer-locks/<id>.lock`, flock'ed by its holder), exact status from the app-server
 * daemon's JSON-RPC. MCP, notify and hooks per process through `-c` (which makes its TUI embedded).
 */
import { join } from 'node:path';
import { defineHarness } from '../adapter.ts';
import { isUuid } from '../../core/ids.ts';
import { dirFromEnv, userHome } from '../homes.ts';
import { codexHeadless, codexResumeArgv, codexSend } from './commands.ts';
import { codexHooks } from './hooks.ts';
import { codexInstallTarget } from './install.ts';
import { codexStartArgs, planCodex } from './launch.ts';

export const codex = defineHarness({
  name: 'codex',
  label: 'Codex',
  bin: 'codex',
  display: {
    mark: 'CX',
    color: '#0f9d58',
    critters: [['robot', '🤖'], ['alien', '👾'], ['rocket', '🚀'], ['satellite', '🛰️'], ['gear', '⚙️'], ['ufo', '🛸']],
    dot: '🟢',
  },
  mcpClientNames: [/^codex/i],
  // Codex's MCP client puts the calling thread's id in every tool call's _meta.
  mcpToolMeta: { key: 'threadId', via: 'codex-thread' },
  homes(env) {
    const dir = dirFromEnv(env, 'CODEX_HOME', join(userHome(env), '.codex'));
    return { data: dir, config: dir };
  },
  isValidId: isUuid,
  async createSource(d) {
    const { createCodexSource } = await import('./discovery/source.ts');
    return createCodexSource({ home: d.homes.data, proc: d.proc, index: d.index, git: d.git, cold: d.cold });
  },
  resumeArgv: codexResumeArgv,
  send: codexSend,
  planLaunch: planCodex,
  // Every command Codex 0.171.0 runs gets these (observed).
  processEnv: ['CODEX_THREAD_ID', 'CODEX_SESSION_ID', 'CODEX_TOOL_CALL_ID', 'CODEX_CI'],
  startArgs: codexStartArgs,
  hooks: codexHooks,
  installTarget: codexInstallTarget,
  headless: codexHeadless,
  defaultAuditSpec: (s) => `cli:codex${s.model ? `/${s.model}` : ''}`,
});
