/**
 * `muster hooks install --harness copilot`: Muster's hook entries merged into the user's
 * `~/.copilot/settings.json` (`$COPILOT_HOME/settings.json`). Copilot's own shape: `hooks.<event>` is
 * a list of entries (`{ type: 'command', bash, timeoutSec }`), without Claude's matcher groups. Every
 * other key and entry is kept; Muster's entries are recognised by their command
 * (`… hook copilot <event>` from a muster entry point), so a second install changes nothing.
 */
import { join } from 'node:path';
import { MalformedConfig, type FileEdit } from '../../hooks/install/engine.ts';
import { parseHooksConfig } from '../../hooks/install/json-hooks.ts';
import { readConfigText, type InstallTarget, type TargetContext } from '../../hooks/install/target.ts';
import { hookCommand } from '../../launch/plan-types.ts';
import { COPILOT_HOOK_EVENTS } from './hooks.ts';
import { copilotHookEntry } from './launch.ts';

type Json = Record<string, unknown>;

const ours = (entry: unknown): boolean => {
  const c = (entry as Json | null)?.bash;
  return typeof c === 'string' && /muster/.test(c) && / hook copilot [A-Za-z]+$/.test(c);
};

/** settings.json with Muster's entries added, replaced in place, or removed. */
export function copilotSettingsEdit(path: string, command: (event: string) => string): FileEdit {
  return {
    path,
    has(current) {
      const hooks = parseHooksConfig(current, path).hooks as Json | undefined;
      return !!hooks && Object.values(hooks).some((list) => Array.isArray(list) && list.some(ours));
    },
    add(current) {
      const doc = parseHooksConfig(current, path);
      const hooks = { ...((doc.hooks as Json | undefined) ?? {}) };
      for (const e of COPILOT_HOOK_EVENTS) {
        const existing = hooks[e];
        if (existing !== undefined && !Array.isArray(existing)) throw new MalformedConfig(`${path}: hooks.${e} is not a list; Muster left it untouched`);
        const list = (existing as unknown[] | undefined) ?? [];
        const entry = copilotHookEntry(command(e), e);
        const at = list.findIndex(ours);
        hooks[e] = at >= 0 ? list.map((x, i) => (i === at ? entry : x)).filter((x, i) => i === at || !ours(x)) : [...list, entry];
      }
      return `${JSON.stringify({ ...doc, hooks }, null, 2)}\n`;
    },
    remove(current) {
      const doc = parseHooksConfig(current, path);
      const hooks: Json = {};
      for (const [e, list] of Object.entries((doc.hooks as Json | undefined) ?? {})) {
        if (!Array.isArray(list)) {
          hooks[e] = list;
          continue;
        }
        const kept = list.filter((x) => !ours(x));
        if (kept.length > 0) hooks[e] = kept;
      }
      const out: Json = { ...doc, hooks };
      if (Object.keys(hooks).length === 0) delete out.hooks;
      return `${JSON.stringify(out, null, 2)}\n`;
    },
  };
}

export function copilotInstallTarget(ctx: TargetContext): InstallTarget {
  const path = join(ctx.homes.config, 'settings.json');
  return {
    edits: [copilotSettingsEdit(path, (e) => hookCommand(ctx, 'copilot', e))],
    accepted() {
      const text = readConfigText(path);
      const off = text !== null && /"disableAllHooks"\s*:\s*true/.test(text);
      return off ? { accepted: false, detail: 'settings.json sets disableAllHooks' } : { accepted: true, detail: 'read by Copilot CLI at start (a running copilot keeps its hooks until restarted)' };
    },
  };
}
