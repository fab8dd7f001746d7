/**
 * Muster's Gemini CLI extension: `<gemini home>/extensions/muster/` with a manifest
 * (`gemini-extension.json`: the MCP server) and `hooks/hooks.json` (the status hooks). Gemini CLI
 * 0.61.0 has no per-process settings flag, and loads every directory under `extensions/` whose
 * manifest parses, enabled unless `extension-enablement.json` says otherwise (observed; no install
 * metadata needed), so `muster hooks install --harness gemini` writes these two files once.
 *
 * One install serves every process because Gemini expands `${VAR}` / `${VAR:-default}` in the
 * manifest from the process environment when it loads the extension: the MCP URL, token and
 * session identity come from what `muster gemini` sets. Outside the wrapper the URL expands to ''
 * and Gemini skips a server with no URL, so plain `gemini` shows no MCP error (0.61.0,
 * observed). The hooks run `muster hook gemini <Event>`, which reports to the daemon the
 * environment names (the wrapper's MUSTER_URL, else MUSTER_HOME's lock record) and exits at once
 * when there is none.
 */
import { join } from 'node:path';
import { hookTimeoutS } from '../../hooks/stop-wait.ts';
import { GEMINI_HOOK_EVENTS, GEMINI_TOOL_EVENTS } from './hooks.ts';

/** In both files' `description`: how install, uninstall and the wrapper recognise Muster's own. */
export const EXTENSION_MARKER = 'muster-status: written by `muster hooks install`; `muster hooks uninstall` removes it';

/** The variables `muster gemini` sets for the extension to read. */
export const EXTENSION_ENV = {
  url: 'MUSTER_MCP_URL',
  token: 'MUSTER_MCP_TOKEN',
  session: 'MUSTER_SESSION_ID',
  launch: 'MUSTER_LAUNCH_ID',
} as const;

export interface ExtensionPaths {
  dir: string;
  manifest: string;
  hooks: string;
}

/** Where the extension lives in a Gemini home (`~/.gemini`, or `$GEMINI_CLI_HOME/.gemini`). */
export function extensionPaths(geminiHome: string): ExtensionPaths {
  const dir = join(geminiHome, 'extensions', 'muster');
  return { dir, manifest: join(dir, 'gemini-extension.json'), hooks: join(dir, 'hooks', 'hooks.json') };
}

const env = (name: string) => `\${${name}:-}`;

/** The manifest: Muster's MCP server, every value from the environment (or Gemini's `${workspacePath}`). */
export function extensionManifest(): string {
  const manifest = {
    name: 'muster',
    // The extension's own version (Gemini requires one); its content changes only with this file.
    version: '1.0.0',
    description: EXTENSION_MARKER,
    mcpServers: {
      muster: {
        httpUrl: env(EXTENSION_ENV.url),
        headers: {
          Authorization: `Bearer ${env(EXTENSION_ENV.token)}`,
          'x-muster-session-id': env(EXTENSION_ENV.session),
          'x-muster-launch-id': env(EXTENSION_ENV.launch),
          'x-muster-harness': 'gemini',
          'x-muster-cwd': '${workspacePath}',
        },
      },
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The hooks file. Timeouts are milliseconds in Gemini (default 60 000): 5 s for status events, and
 * the turn end's longer bound, since AfterAgent may wait for a goal's audit.
 */
export function extensionHooks(command: (event: string) => string): string {
  const hooks: Record<string, unknown> = {};
  for (const e of GEMINI_HOOK_EVENTS) {
    hooks[e] = [{ matcher: GEMINI_TOOL_EVENTS.includes(e) ? '.*' : '', hooks: [{ type: 'command', name: `muster-${e}`, command: command(e), timeout: hookTimeoutS(e, 'AfterAgent') * 1000 }] }];
  }
  return `${JSON.stringify({ description: EXTENSION_MARKER, hooks }, null, 2)}\n`;
}

/** True when `text` is one of the extension's files as Muster writes them (marked, parseable). */
export function isMusterExtensionFile(text: string | null): boolean {
  if (text === null) return false;
  try {
    const v = JSON.parse(text) as { description?: unknown };
    return v !== null && typeof v === 'object' && v.description === EXTENSION_MARKER;
  } catch {
    return false;
  }
}
