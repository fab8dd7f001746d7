/**
 * `muster copilot`: everything per process, nothing in the user's files (observed with 1.0.102).
 * - MCP: `--additional-mcp-config @<launch dir>/mcp.json` (0600: it holds the bearer header), which
 *   Copilot merges with the user's `~/.copilot/mcp-config.json` for this process only.
 * - Status hooks: `--plugin-dir <launch dir>/plugin`, a plugin whose hooks/hooks.json runs
 *   `muster hook copilot <event>`; its hooks fire beside the user's own, for this process only.
 * - `--allow-tool=muster`: the tools of the MCP server this launch adds (the pager's four, which only
 *   reach the operator) run without a permission prompt; the user's deny rules still win over it.
 * - A pre-assigned `--session-id`, so hooks and pages are attributed from the first moment, and
 *   `--name` for the session's name (new sessions only).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { isUuid } from '../../core/ids.ts';
import { hookTimeoutS } from '../../hooks/stop-wait.ts';
import { baseEnv, flagValue, hasFlag, hookCommand, identityHeaders, type LaunchContext, type LaunchPlan } from '../../launch/plan-types.ts';
import { COPILOT_HOOK_EVENTS, COPILOT_TURN_END } from './hooks.ts';
import type { StartArgs, StartRequest } from '../adapter.ts';

/** One Copilot hook entry (its own shape: `bash` is the command, `timeoutSec` its bound). */
export function copilotHookEntry(command: string, event: string): Record<string, unknown> {
  return { type: 'command', bash: command, timeoutSec: hookTimeoutS(event, COPILOT_TURN_END) };
}

/** Muster's hooks as a plugin's hooks/hooks.json (`{ version: 1, hooks: { <event>: [entry] } }`). */
export function copilotHooksFile(command: (event: string) => string): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const e of COPILOT_HOOK_EVENTS) hooks[e] = [copilotHookEntry(command(e), e)];
  return { version: 1, hooks };
}

/** The plugin's manifest; `hooks` points at the file above, relative to the plugin folder. */
export const PLUGIN_MANIFEST = { name: 'muster-status', version: '1.0.0', description: 'Muster status hooks for this process', hooks: 'hooks/hooks.json' };

/** The session this launch opens: the user's `--session-id` or `--resume=<id>`, else a new one we name. */
function sessionIdFor(args: string[]): { id: string | null; assign: boolean; resuming: boolean } {
  const given = flagValue(args, ['--session-id']);
  if (given !== null) return { id: isUuid(given) ? given.toLowerCase() : null, assign: false, resuming: false };
  if (hasFlag(args, ['--resume', '-r', '--continue', '--connect'])) {
    const resumed = flagValue(args, ['--resume', '-r']);
    return { id: resumed !== null && isUuid(resumed) ? resumed.toLowerCase() : null, assign: false, resuming: true };
  }
  return { id: randomUUID(), assign: true, resuming: false };
}

export function planCopilot(ctx: LaunchContext): LaunchPlan {
  const { id: sessionId, assign, resuming } = sessionIdFor(ctx.args);
  const mcpPath = join(ctx.launchDir, 'mcp.json');
  const pluginDir = join(ctx.launchDir, 'plugin');
  const mcp = { mcpServers: { muster: { type: 'http', url: ctx.mcpUrl, headers: { Authorization: `Bearer ${ctx.token}`, ...identityHeaders(ctx, sessionId) }, tools: ['*'] } } };
  const hooks = copilotHooksFile((e) => hookCommand(ctx, 'copilot', e));
  // `=` keeps --allow-tool (which takes several values) from swallowing the next argument.
  const argv = ['--additional-mcp-config', `@${mcpPath}`, '--allow-tool=muster', '--plugin-dir', pluginDir];
  if (assign && sessionId) argv.push('--session-id', sessionId);
  if (ctx.name && !resuming && !hasFlag(ctx.args, ['-n', '--name'])) argv.push('--name', ctx.name);
  return {
    bin: 'copilot',
    argv: [...argv, ...ctx.args],
    env: baseEnv(ctx),
    files: [
      { path: mcpPath, content: `${JSON.stringify(mcp, null, 2)}\n`, mode: 0o600 },
      { path: join(pluginDir, 'plugin.json'), content: `${JSON.stringify(PLUGIN_MANIFEST, null, 2)}\n`, mode: 0o600 },
      { path: join(pluginDir, 'hooks', 'hooks.json'), content: `${JSON.stringify(hooks, null, 2)}\n`, mode: 0o600 },
    ],
    sessionId,
    notes: resuming && sessionId === null ? ['copilot resumes a session named by prefix, name or picker: pages are attributed by working directory until a hook names it'] : [],
  };
}

/** `muster new`: a pre-assigned `--session-id` and `--interactive=<text>` (`-i`: runs it, then stays interactive). */
export function copilotStartArgs(req: StartRequest): StartArgs {
  return { args: ['--session-id', req.newId, ...(req.prompt === null ? [] : [`--interactive=${req.prompt}`])], sessionId: req.newId };
}
