/**
 * `muster hooks install --harness opencode`: the status plugin as a TUI plugin listed in the global
 * tui.json, kept out of plugin/ (whatever sits there is a server plugin, and OpenCode 1.18.33 holds
 * start-up until its npm installs finish before loading one; see launch.ts). The server plugin earlier
 * versions put in plugin/ is retired.
 */
import { join } from 'node:path';
import { ownedFileEdit } from '../../hooks/install/json-hooks.ts';
import { readConfigText, STATUS_MARKER, type InstallTarget, type TargetContext } from '../../hooks/install/target.ts';
import { pluginListEdit } from './tui-plugin-list.ts';

export function opencodeInstallTarget(ctx: TargetContext): InstallTarget {
  const dir = ctx.homes.config;
  const file = join(dir, 'muster-status.js');
  const list = pluginListEdit(join(dir, 'tui.json'), './muster-status.js');
  return {
    edits: [ownedFileEdit(file, ctx.asset('opencode-plugin'), STATUS_MARKER), list],
    retired: [ownedFileEdit(join(dir, 'plugin', 'muster-status.js'), '', STATUS_MARKER)],
    accepted() {
      let listed = false;
      try {
        listed = list.has(readConfigText(list.path));
      } catch {
        return { accepted: false, detail: 'tui.json does not parse' };
      }
      const ok = listed && (readConfigText(file)?.startsWith(STATUS_MARKER) ?? false);
      return { accepted: ok, detail: ok ? 'TUI plugin in tui.json; loaded by every OpenCode TUI started after install (opencode run and serve report no status)' : 'the plugin file or its tui.json entry is missing' };
    },
  };
}
