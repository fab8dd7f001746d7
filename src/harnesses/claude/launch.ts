/**
 * Claude Code: MCP through `--mcp-config <file>` (0600, it carries the bearer header) without
 * --strict-mcp-config so the user's own servers stay; status hooks through `--settings <file>`,
 * which Claude merges with the user's settings without touching them (2.1.332: the user's own hooks
 * still run beside ours, observed); a pre-assigned
 * `--session-id` so hooks and pages attribute from the first moment; `-n NAME` for the name.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { isUuid } from '../../core/ids.ts';
import { hookTimeoutS } from '../../hooks/stop-wait.ts';
import { baseEnv, flagValue, hasFlag, hookCommand, identityHeaders, type LaunchContext, type LaunchPlan } from '../../launch/plan-types.ts';
import type { StartArgs, StartRequest } from '../adapter.ts';
import { CLAUDE_HOOK_EVENTS } from './hooks.ts';

/**
 * Muster's hooks as a `--settings` document. Per-hook timeouts in seconds: 5 (the hook itself gives
 * up after 250 ms), except Stop, which may wait for a goal's audit and so outlives Claude's 60 s default.
 */
export function claudeHooksConfig(command: (event: string) => string): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const e of CLAUDE_HOOK_EVENTS) hooks[e] = [{ matcher: '', hooks: [{ type: 'command', command: command(e), timeout: hookTimeoutS(e, 'Stop') }] }];
  return { hooks };
}

function sessionIdFor(args: string[]): { id: string | null; assign: boolean } {
  const given = flagValue(args, ['--session-id']);
  if (given) return { id: isUuid(given) ? given : null, assign: false };
  const resumed = flagValue(args, ['--resume', '-r']);
  // Resuming keeps the old id (unless forked); --continue picks one we cannot know up front.
  if (resumed !== null || hasFlag(args, ['--resume', '-r', '--continue', '-c'])) {
    return { id: resumed && isUuid(resumed) && !hasFlag(args, ['--fork-session']) ? resumed : null, assign: false };
  }
  return { id: randomUUID(), assign: true };
}

export function planClaude(ctx: LaunchContext): LaunchPlan {
  const { id: sessionId, assign } = sessionIdFor(ctx.args);
  const mcpPath = join(ctx.launchDir, 'mcp.json');
  const settingsPath = join(ctx.launchDir, 'settings.json');
  const mcp = { mcpServers: { muster: { type: 'http', url: ctx.mcpUrl, headers: { Authorization: `Bearer ${ctx.token}`, ...identityHeaders(ctx, sessionId) } } } };
  const settings = claudeHooksConfig((e) => hookCommand(ctx, 'claude', e));
  // --mcp-config is variadic: the next option (--settings) ends its list before the user's words.
  const argv = ['--mcp-config', mcpPath, '--settings', settingsPath];
  if (assign && sessionId) argv.push('--session-id', sessionId);
  if (ctx.name && !hasFlag(ctx.args, ['-n', '--name'])) argv.push('-n', ctx.name);
  return {
    bin: 'claude',
    argv: [...argv, ...ctx.args],
    env: baseEnv(ctx),
    files: [
      { path: mcpPath, content: `${JSON.stringify(mcp, null, 2)}\n`, mode: 0o600 },
      { path: settingsPath, content: `${JSON.stringify(settings, null, 2)}\n`, mode: 0o600 },
    ],
    sessionId,
    notes: [],
  };
}

/**
 * `muster new`: a pre-assigned `--session-id`, and the prompt after `--` — without it a prompt that
 * is a subcommand's name (`mcp`, `update`) runs that subcommand, and one starting with `-` reads as
 * an option (2.1.332, observed).
 */
export function claudeStartArgs(req: StartRequest): StartArgs {
  return { args: ['--session-id', req.newId, ...(req.prompt === null ? [] : ['--', req.prompt])], sessionId: req.newId };
}
