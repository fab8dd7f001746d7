/**
 * Codex: MCP through `-c mcp_servers.muster.*` — the URL, per-process identity headers, and the
 * token read from an env var (`bearer_token_env_var`) so it never sits in argv; turn-end status
 * through `-c notify=[… muster hook codex notify]` unless the user has a notify program of their own
 * (0.171.0: notify fires in the embedded TUI, with the thread id, once per finished turn — observed).
 *
 * Consequence: any `-c` makes the Codex TUI run *embedded* — the thread lives in this
 * process instead of the shared app-server daemon, so quitting the TUI ends the thread (no detached
 * turn keeps running), no daemon is started or reused, and `codex resume <id>` reopens it later as usual.
 * Codex hooks (hooks.json) need per-handler trust, so the wrapper does not inject them per process;
 * `muster hooks install --harness codex` adds them for every Codex run.
 */
import { join } from 'node:path';
import { readConfigText } from '../../hooks/install/target.ts';
import { baseEnv, identityHeaders, type LaunchContext, type LaunchPlan } from '../../launch/plan-types.ts';
import type { StartArgs, StartRequest } from '../adapter.ts';

/** The env var Codex reads the bearer token from (never argv: /proc/<pid>/cmdline is world-readable). */
export const CODEX_TOKEN_ENV = 'MUSTER_MCP_TOKEN';

/** TOML basic strings accept JSON's escapes for everything JSON.stringify emits. */
const tomlString = (s: string) => JSON.stringify(s);
const tomlInline = (o: Record<string, string>) => `{${Object.entries(o).map(([k, v]) => `${tomlString(k)}=${tomlString(v)}`).join(',')}}`;

/** Whether the user's config.toml (in CODEX_HOME) sets a top-level `notify` (then theirs stays in charge). */
export function userHasNotify(home: string): boolean {
  const text = readConfigText(join(home, 'config.toml'));
  const top = text?.split(/^\s*\[/m)[0] ?? '';
  return /^\s*notify\s*=/m.test(top);
}

export function planCodex(ctx: LaunchContext): LaunchPlan {
  const headers = identityHeaders(ctx, null);
  const argv = [
    '-c', `mcp_servers.muster.url=${tomlString(ctx.mcpUrl)}`,
    '-c', `mcp_servers.muster.bearer_token_env_var=${tomlString(CODEX_TOKEN_ENV)}`,
    '-c', `mcp_servers.muster.http_headers=${tomlInline(headers)}`,
  ];
  const notes = ['codex runs embedded (any -c does that): quitting the TUI ends the thread; resume it with `codex resume <id>`'];
  if (userHasNotify(ctx.homes.config)) notes.push('your config.toml has its own notify program; turn-end pushes come from hooks only');
  else argv.push('-c', `notify=[${[...ctx.hookArgv, 'codex', 'notify'].map(tomlString).join(',')}]`);
  return {
    bin: 'codex',
    // Codex's -c is global: it goes before a subcommand (exec, resume) as well as before a prompt.
    argv: [...argv, ...ctx.args],
    env: { ...baseEnv(ctx), [CODEX_TOKEN_ENV]: ctx.token },
    files: [],
    sessionId: null,
    notes,
  };
}

/**
 * `muster new`: the prompt after `--` (0.171.0: then a subcommand's name or a leading `-` is read as
 * the prompt). The interactive CLI takes no session id: the thread id comes from its first hook.
 */
export function codexStartArgs(req: StartRequest): StartArgs {
  return { args: req.prompt === null ? [] : ['--', req.prompt], sessionId: null };
}
