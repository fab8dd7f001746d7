/** What a per-harness launch plan needs and produces. Plans are pure: the wrapper does the I/O. */
import type { Harness } from '../core/session.ts';
import { shellQuote } from '../core/shell-quote.ts';
import type { HarnessHomes } from '../harnesses/adapter.ts';
import type { StatusAssetName } from '../hooks/install/target.ts';

export interface LaunchContext {
  harness: Harness;
  launchId: string;
  /** --name NAME given to the wrapper. */
  name: string | null;
  /** The user's own harness arguments, passed through untouched. */
  args: string[];
  cwd: string;
  /** Daemon API base (…/api) and MCP endpoint (…/mcp). */
  api: string;
  mcpUrl: string;
  /** The bearer token: only ever written to 0600 files or the child's env, never to argv. */
  token: string;
  tokenFile: string;
  /** MUSTER_HOME/launch/<launch id>/, created 0700 by the wrapper. */
  launchDir: string;
  /** argv that runs `muster hook` (e.g. [node, bin/muster.js, 'hook']); joined into hook commands. */
  hookArgv: string[];
  /** The environment the wrapper runs in (read for the user's own settings, never modified). */
  env: NodeJS.ProcessEnv;
  /** The harness's homes, from its adapter (for the user's own settings). */
  homes: HarnessHomes;
  /** The text of a built status plugin or extension the plan drops into the launch directory. */
  asset(name: StatusAssetName): string;
}

export interface PlannedFile {
  path: string;
  content: string;
  /** 0600 for anything holding the token. */
  mode: number;
}

export interface LaunchPlan {
  /** Executable to run (looked up on PATH by the wrapper). */
  bin: string;
  argv: string[];
  /** Added to the inherited environment. */
  env: Record<string, string>;
  files: PlannedFile[];
  /** Known before the harness starts (Claude's pre-assigned --session-id). */
  sessionId: string | null;
  /** Consequences the user should know about (printed to stderr only when MUSTER_DEBUG is set). */
  notes: string[];
  /**
   * Files the launch depends on that the plan does not write (Gemini CLI's extension, installed once
   * because the CLI takes no per-process settings): the wrapper starts nothing when one is missing or
   * lacks `contains`, and says `fix`.
   */
  requires?: { path: string; contains: string; fix: string }[];
}

export function hookCommand(ctx: Pick<LaunchContext, 'hookArgv'>, harness: Harness, event: string): string {
  return [...ctx.hookArgv, harness, event].map(shellQuote).join(' ');
}

/** Identity headers every MCP connection of this launch carries (the pager attributes pages by them). */
export function identityHeaders(ctx: LaunchContext, sessionId: string | null): Record<string, string> {
  const h: Record<string, string> = { 'x-muster-launch-id': ctx.launchId, 'x-muster-harness': ctx.harness, 'x-muster-cwd': ctx.cwd };
  if (sessionId) h['x-muster-session-id'] = sessionId;
  return h;
}

/** The environment every wrapped child gets. */
export function baseEnv(ctx: LaunchContext): Record<string, string> {
  return { MUSTER_LAUNCH_ID: ctx.launchId, MUSTER_URL: ctx.api, MUSTER_TOKEN_FILE: ctx.tokenFile };
}

/** True when any of `flags` (exact, or as `--flag=value`) appears before a `--`. */
export function hasFlag(args: string[], flags: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (flags.some((f) => a === f || a.startsWith(`${f}=`))) return true;
  }
  return false;
}

/** The value of the first of `flags` before a `--`, in either `--flag value` or `--flag=value` form. */
export function flagValue(args: string[], flags: string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') return null;
    for (const f of flags) {
      if (a === f) return args[i + 1] ?? null;
      if (a.startsWith(`${f}=`)) return a.slice(f.length + 1);
    }
  }
  return null;
}
