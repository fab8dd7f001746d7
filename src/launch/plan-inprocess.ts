/**
 * Harnesses whose hooks run in-process. OpenCode: MCP with per-process headers merged into
 * OPENCODE_CONFIG_CONTENT (the user's own value, if any, is kept), the status plugin through
 * OPENCODE_CONFIG_DIR (a directory OpenCode loads in addition to the user's config; its plugin/ is
 * loaded — observed with 1.18.33, test/harness/wrapper.test.ts).
 * pi and omp: the Muster extension through `-e` (status and the four pager tools; loads in pi 0.73.1 and omp 18.2.3, observed). pi has no MCP; omp's MCP lives only in config files
 * (~/.omp/agent/mcp.json, <cwd>/.omp/mcp.json) that the wrapper must not edit, so both reach Muster
 * over REST from the extension.
 */
import { join } from 'node:path';
import { baseEnv, identityHeaders, type LaunchContext, type LaunchPlan } from './plan-types.ts';
import { opencodePluginSource, piExtensionSource } from './status-scripts.ts';

function parseObject(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function planOpencode(ctx: LaunchContext): LaunchPlan {
  const base = parseObject(ctx.env.OPENCODE_CONFIG_CONTENT);
  const mcp = { ...(base.mcp as Record<string, unknown> | undefined), muster: { type: 'remote', url: ctx.mcpUrl, enabled: true, headers: { Authorization: `Bearer ${ctx.token}`, ...identityHeaders(ctx, null) } } };
  const configDir = join(ctx.launchDir, 'opencode');
  const notes: string[] = [];
  const env: Record<string, string> = { ...baseEnv(ctx), OPENCODE_CONFIG_CONTENT: JSON.stringify({ ...base, mcp }) };
  if (ctx.env.OPENCODE_CONFIG_DIR) notes.push('OPENCODE_CONFIG_DIR is already set: the status plugin is not loaded; `muster hooks install --harness opencode` adds it globally');
  else env.OPENCODE_CONFIG_DIR = configDir;
  return {
    bin: 'opencode',
    argv: [...ctx.args],
    env,
    files: [{ path: join(configDir, 'plugin', 'muster-status.js'), content: opencodePluginSource(), mode: 0o600 }],
    sessionId: null,
    notes,
  };
}

export function planPiFamily(ctx: LaunchContext & { harness: 'pi' | 'omp' }): LaunchPlan {
  const ext = join(ctx.launchDir, 'muster-status.ts');
  return {
    bin: ctx.harness,
    argv: ['-e', ext, ...ctx.args],
    env: baseEnv(ctx),
    files: [{ path: ext, content: piExtensionSource(ctx.harness), mode: 0o600 }],
    sessionId: null,
    notes: ctx.harness === 'omp' ? ['omp reads MCP servers only from config files; Muster reaches it through the extension instead'] : ['pi has no MCP; Muster reaches it through the extension'],
  };
}
