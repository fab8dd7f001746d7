/**
 * `muster gemini`: Gemini CLI 0.61.0 has no per-process settings flag, so MCP and hooks come from
 * Muster's extension, installed once (extension.ts); the plan requires it and sets what the
 * extension reads from the environment: the MCP URL, the bearer token (in the environment, never in
 * argv) and the session identity. A pre-assigned `--session-id` names the session from the first
 * moment. Gemini has no session-name flag: `--name` names the session in Muster only.
 */
import { randomUUID } from 'node:crypto';
import { isUuid } from '../../core/ids.ts';
import { baseEnv, flagValue, hasFlag, type LaunchContext, type LaunchPlan } from '../../launch/plan-types.ts';
import type { StartArgs, StartRequest } from '../adapter.ts';
import { EXTENSION_ENV, EXTENSION_MARKER, extensionPaths } from './extension.ts';

/** Subcommands and flags that start no chat session: nothing to pre-assign. */
const NO_SESSION_COMMANDS = ['mcp', 'extensions', 'extension', 'skills', 'skill', 'hooks', 'hook', 'gemma'];
const NO_SESSION_FLAGS = ['--list-sessions', '--delete-session', '--list-extensions', '-l', '--help', '-h', '--version', '-v', '--acp', '--experimental-acp'];

/** The session this launch will be: given, resumed by id, or pre-assigned here. */
export function geminiSessionFor(args: string[]): { id: string | null; assign: boolean } {
  const given = flagValue(args, ['--session-id']);
  if (given !== null) return { id: isUuid(given) ? given.toLowerCase() : null, assign: false };
  if (hasFlag(args, ['--resume', '-r'])) {
    // `--resume latest` and `--resume <index>` pick a session we cannot know up front.
    const resumed = flagValue(args, ['--resume', '-r']);
    return { id: resumed !== null && isUuid(resumed) ? resumed.toLowerCase() : null, assign: false };
  }
  // A session loaded from a file keeps the id in it, which we cannot know up front either.
  if (NO_SESSION_COMMANDS.includes(args[0] ?? '') || hasFlag(args, [...NO_SESSION_FLAGS, '--session-file'])) return { id: null, assign: false };
  return { id: randomUUID(), assign: true };
}

export function planGemini(ctx: LaunchContext): LaunchPlan {
  const { id, assign } = geminiSessionFor(ctx.args);
  const ext = extensionPaths(ctx.homes.config);
  const fix = 'Muster\'s Gemini CLI extension is not installed (Gemini CLI takes no per-process settings): run `muster hooks install --harness gemini` once, then `muster gemini` again';
  return {
    bin: 'gemini',
    argv: [...(assign && id ? ['--session-id', id] : []), ...ctx.args],
    env: {
      ...baseEnv(ctx),
      [EXTENSION_ENV.url]: ctx.mcpUrl,
      [EXTENSION_ENV.token]: ctx.token,
      [EXTENSION_ENV.session]: id ?? '',
      [EXTENSION_ENV.launch]: ctx.launchId,
    },
    files: [],
    sessionId: id,
    notes: ['MCP and hooks come from Muster\'s Gemini extension, which reads this process\'s environment'],
    requires: [ext.manifest, ext.hooks].map((path) => ({ path, contains: EXTENSION_MARKER, fix })),
  };
}

/** `muster new`: a pre-assigned `--session-id` and `--prompt-interactive=<text>` (runs it, then stays interactive). */
export function geminiStartArgs(req: StartRequest): StartArgs {
  return { args: ['--session-id', req.newId, ...(req.prompt === null ? [] : [`--prompt-interactive=${req.prompt}`])], sessionId: req.newId };
}
