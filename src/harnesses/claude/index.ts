/**
 * Claude Code: one JSONL transcript per session under `$CLAUDE_CONFIG_DIR/projects/<slug>/`, and a live
 * registry file per running process (`sessions/<pid>.json`) with its status and tmux pane. Command
 * hooks in settings.json (per process through `--settings`), MCP per process through `--mcp-config`.
 */
import { join } from 'node:path';
import { defineHarness } from '../adapter.ts';
import { isUuid } from '../../core/ids.ts';
import { dirFromEnv, userHome } from '../homes.ts';
import { claudeHeadless, claudeResumeArgv, claudeSend } from './commands.ts';
import { claudeHooks } from './hooks.ts';
import { claudeInstallTarget } from './install.ts';
import { claudeStartArgs, planClaude } from './launch.ts';

export const claude = defineHarness({
  name: 'claude',
  label: 'Claude Code',
  bin: 'claude',
  display: {
    mark: 'CC',
    color: '#d9770b',
    critters: [['fox', '🦊'], ['owl', '🦉'], ['octopus', '🐙'], ['hedgehog', '🦔'], ['otter', '🦦'], ['crab', '🦀'], ['lion', '🦁'], ['koala', '🐨']],
    dot: '🟠',
  },
  mcpClientNames: [/^claude-code/i],
  homes(env) {
    const dir = dirFromEnv(env, 'CLAUDE_CONFIG_DIR', join(userHome(env), '.claude'));
    return { data: dir, config: dir };
  },
  isValidId: isUuid,
  async createSource(d) {
    const { createClaudeSource } = await import('./discovery/source.ts');
    return createClaudeSource({ home: d.homes.data, proc: d.proc, index: d.index, git: d.git, cold: d.cold });
  },
  resumeArgv: claudeResumeArgv,
  send: claudeSend,
  planLaunch: planClaude,
  // What Claude Code 2.1.332 sets in its hooks' and tools' environment (observed).
  processEnv: ['CLAUDECODE', 'CLAUDE_PID', 'CLAUDE_CODE_SESSION_ID', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_SESSION_ATTENDED', 'CLAUDE_CODE_CHILD_SESSION', 'CLAUDE_CODE_MESSAGING_SOCKET', 'CLAUDE_CODE_MESSAGING_TOKEN', 'CLAUDE_ENV_FILE', 'CLAUDE_CODE_CHILD_NOTES_DIR', 'CLAUDE_PROJECT_DIR', 'CLAUDE_EFFORT'],
  startArgs: claudeStartArgs,
  hooks: claudeHooks,
  installTarget: claudeInstallTarget,
  headless: claudeHeadless,
  defaultAuditSpec: (s) => `cli:claude${s.model ? `/${s.model}` : ''}`,
});
