/**
 * OpenCode: MCP with per-process headers merged into OPENCODE_CONFIG_CONTENT (the user's own value,
 * if any, is kept), and the status plugin as a TUI plugin listed in a per-launch tui.json named by
 * OPENCODE_TUI_CONFIG. Why not a server plugin in an OPENCODE_CONFIG_DIR (observed with 1.18.33):
 * OpenCode starts an npm install of `@opencode-ai/plugin` in every config directory (the global one,
 * `.opencode` ones, OPENCODE_CONFIG_DIR) unless it already has node_modules and a lock file naming
 * that package, and before loading any server plugin it waits for all those installs. A fresh
 * per-launch directory thus cost a ~64 MB download on every start online (prompt after ~18–24 s instead
 * of ~6–12 s), and offline the TUI stayed blank until npm gave up (~70 s against a refused port, far
 * longer when packets are dropped), also waiting on the global directory of a machine that never
 * installed the package. A TUI plugin loads without that wait, and OPENCODE_TUI_CONFIG adds no config
 * directory, so nothing is installed for it.
 */
import { join } from 'node:path';
import { baseEnv, identityHeaders, type LaunchContext, type LaunchPlan } from '../../launch/plan-types.ts';
import type { StartArgs, StartRequest } from '../adapter.ts';

function parseObject(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** OpenCode commands that run no TUI, so no TUI plugin. */
const HEADLESS = new Set(['run', 'serve', 'web', 'acp']);

/** The tui.json that loads the status plugin beside it (a relative entry resolves against the file's folder). */
export const OPENCODE_TUI_JSON = `${JSON.stringify({ plugin: ['./muster-status.js'] }, null, 2)}\n`;

export function planOpencode(ctx: LaunchContext): LaunchPlan {
  const base = parseObject(ctx.env.OPENCODE_CONFIG_CONTENT);
  const mcp = { ...(base.mcp as Record<string, unknown> | undefined), muster: { type: 'remote', url: ctx.mcpUrl, enabled: true, headers: { Authorization: `Bearer ${ctx.token}`, ...identityHeaders(ctx, null) } } };
  const dir = join(ctx.launchDir, 'opencode');
  const notes: string[] = [];
  if (HEADLESS.has(ctx.args[0] ?? '')) notes.push(`the status plugin is a TUI plugin: \`opencode ${ctx.args[0]}\` reports no status events`);
  const env: Record<string, string> = { ...baseEnv(ctx), OPENCODE_CONFIG_CONTENT: JSON.stringify({ ...base, mcp }) };
  const files: LaunchPlan['files'] = [];
  if (ctx.env.OPENCODE_TUI_CONFIG) {
    // Replacing it would drop the user's TUI settings; the global install covers this case.
    notes.push('OPENCODE_TUI_CONFIG is already set: the status plugin is not loaded; `muster hooks install --harness opencode` adds it globally');
  } else {
    env.OPENCODE_TUI_CONFIG = join(dir, 'tui.json');
    files.push({ path: join(dir, 'muster-status.js'), content: ctx.asset('opencode-plugin'), mode: 0o600 }, { path: env.OPENCODE_TUI_CONFIG, content: OPENCODE_TUI_JSON, mode: 0o600 });
  }
  return { bin: 'opencode', argv: [...ctx.args], env, files, sessionId: null, notes };
}

/**
 * `muster new`: `--prompt=<text>`, one argument yargs never reads as an option (1.18.33 has no flag for a
 * new session's id; it comes from the status plugin's first event).
 */
export function opencodeStartArgs(req: StartRequest): StartArgs {
  return { args: req.prompt === null ? [] : [`--prompt=${req.prompt}`], sessionId: null };
}
