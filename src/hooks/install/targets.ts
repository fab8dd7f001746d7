/**
 * Where each harness keeps the configuration `muster hooks install` edits (for agents started the
 * ordinary way), and how to tell whether the harness has accepted it.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Harness } from '../../core/session.ts';
import { CLAUDE_HOOK_EVENTS } from '../../launch/plan-claude.ts';
import { hookCommand } from '../../launch/plan-types.ts';
import { MARKER, opencodePluginSource, piExtensionSource } from '../../launch/status-scripts.ts';
import { jsonHooksEdit, ownedFileEdit } from './json-hooks.ts';
import { pluginListEdit } from './plugin-list.ts';
import { codexNotifyEdit } from './toml-notify.ts';
import { claudeHookTimeoutS } from '../stop-wait.ts';
import type { FileEdit } from './engine.ts';

/** Codex events that load from hooks.json (codex.md §9; `Notification` is ignored by Codex). */
export const CODEX_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'Interrupt', 'SessionEnd'] as const;

export interface TargetContext {
  env: NodeJS.ProcessEnv;
  /** argv that runs `muster hook` (absolute node + entry point). */
  hookArgv: string[];
}

export interface Target {
  harness: Harness;
  edits: FileEdit[];
  /** What earlier versions installed and this one replaces: removed by install and uninstall alike. */
  retired?: FileEdit[];
  /** Whether the harness takes the installed config (null: cannot tell), with a hint when not. */
  accepted(): { accepted: boolean | null; detail: string };
}

const home = (env: NodeJS.ProcessEnv) => env.HOME || homedir();
const snake = (e: string) => e.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

export function claudeDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(home(env), '.claude');
}

export function codexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME || join(home(env), '.codex');
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function claudeTarget(ctx: TargetContext): Target {
  const path = join(claudeDir(ctx.env), 'settings.json');
  return {
    harness: 'claude',
    edits: [jsonHooksEdit({ path, harness: 'claude', events: CLAUDE_HOOK_EVENTS, command: (e) => hookCommand(ctx, 'claude', e), matcher: true, timeoutS: claudeHookTimeoutS })],
    accepted() {
      // Claude hot-reloads settings.json; only disableAllHooks turns them off.
      const text = readText(path);
      const off = text !== null && /"disableAllHooks"\s*:\s*true/.test(text);
      return off ? { accepted: false, detail: 'settings.json sets disableAllHooks' } : { accepted: true, detail: 'loaded by Claude Code (hot reload; --bare skips user hooks)' };
    },
  };
}

function codexTarget(ctx: TargetContext): Target {
  const hooksPath = join(codexHome(ctx.env), 'hooks.json');
  const configPath = join(codexHome(ctx.env), 'config.toml');
  return {
    harness: 'codex',
    edits: [
      jsonHooksEdit({ path: hooksPath, harness: 'codex', events: CODEX_HOOK_EVENTS, command: (e) => hookCommand(ctx, 'codex', e), matcher: false, timeoutS: 5 }),
      codexNotifyEdit(configPath, [...ctx.hookArgv, 'codex', 'notify']),
    ],
    accepted() {
      // Codex runs a hook only once trusted: [hooks.state."<path>:<event>:<group>:<handler>"] trusted_hash.
      let doc: { hooks?: Record<string, { hooks?: { command?: string }[] }[]> };
      try {
        doc = JSON.parse(readText(hooksPath) ?? '{}') as typeof doc;
      } catch {
        return { accepted: false, detail: 'hooks.json does not parse' };
      }
      const config = readText(configPath) ?? '';
      let ours = 0;
      let trusted = 0;
      for (const [event, groups] of Object.entries(doc.hooks ?? {})) {
        groups.forEach((g, gi) => {
          (g.hooks ?? []).forEach((h, hi) => {
            if (!h.command || !/muster/.test(h.command) || !h.command.includes(' hook codex ')) return;
            ours++;
            const key = `[hooks.state."${hooksPath}:${snake(event)}:${gi}:${hi}"]`;
            const at = config.indexOf(key);
            if (at >= 0 && /^\s*trusted_hash\s*=/m.test(config.slice(at + key.length).split(/^\s*\[/m)[0] ?? '')) trusted++;
          });
        });
      }
      if (ours === 0) return { accepted: false, detail: 'no Muster hooks in hooks.json' };
      return trusted === ours
        ? { accepted: true, detail: `all ${ours} hooks trusted` }
        : { accepted: false, detail: `${trusted}/${ours} hooks trusted: review them once in Codex (/hooks) — untrusted hooks silently do not run; notify works without trust` };
    },
  };
}

function ownedTarget(harness: Harness, path: string, content: string, detail: string): Target {
  return {
    harness,
    edits: [ownedFileEdit(path, content, MARKER)],
    accepted: () => ({ accepted: readText(path)?.startsWith(MARKER) ?? false, detail }),
  };
}

/**
 * OpenCode: the status plugin as a TUI plugin listed in the global tui.json, kept out of plugin/
 * (whatever sits there is a server plugin, and OpenCode 1.18.33 holds start-up until its npm
 * installs finish before loading one; see src/launch/plan-inprocess.ts). The server plugin earlier
 * versions put in plugin/ is retired.
 */
function opencodeTarget(env: NodeJS.ProcessEnv): Target {
  const dir = join(env.XDG_CONFIG_HOME || join(home(env), '.config'), 'opencode');
  const file = join(dir, 'muster-status.js');
  const list = pluginListEdit(join(dir, 'tui.json'), './muster-status.js');
  return {
    harness: 'opencode',
    edits: [ownedFileEdit(file, opencodePluginSource(), MARKER), list],
    retired: [ownedFileEdit(join(dir, 'plugin', 'muster-status.js'), '', MARKER)],
    accepted() {
      let listed = false;
      try {
        listed = list.has(readText(list.path));
      } catch {
        return { accepted: false, detail: 'tui.json does not parse' };
      }
      const ok = listed && (readText(file)?.startsWith(MARKER) ?? false);
      return { accepted: ok, detail: ok ? 'TUI plugin in tui.json; loaded by every OpenCode TUI started after install (opencode run and serve report no status)' : 'the plugin file or its tui.json entry is missing' };
    },
  };
}

export function targetFor(harness: Harness, ctx: TargetContext): Target {
  const env = ctx.env;
  switch (harness) {
    case 'claude':
      return claudeTarget(ctx);
    case 'codex':
      return codexTarget(ctx);
    case 'opencode':
      return opencodeTarget(env);
    case 'pi': {
      const dir = join(env.PI_CODING_AGENT_DIR || join(home(env), '.pi', 'agent'), 'extensions');
      return ownedTarget('pi', join(dir, 'muster-status.ts'), piExtensionSource('pi'), 'auto-loaded extension; every pi started after install');
    }
    case 'omp':
      return ownedTarget('omp', join(home(env), '.omp', 'agent', 'extensions', 'muster-status.ts'), piExtensionSource('omp'), 'auto-loaded extension; every omp started after install');
  }
}
