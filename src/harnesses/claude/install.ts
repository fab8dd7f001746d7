/**
 * `muster hooks install --harness claude`: Muster's hook entries merged into the user's
 * settings.json (Claude hot-reloads it; only `disableAllHooks` turns them off).
 */
import { join } from 'node:path';
import { hookCommand } from '../../launch/plan-types.ts';
import { jsonHooksEdit } from '../../hooks/install/json-hooks.ts';
import { readConfigText, type InstallTarget, type TargetContext } from '../../hooks/install/target.ts';
import { hookTimeoutS } from '../../hooks/stop-wait.ts';
import { CLAUDE_HOOK_EVENTS } from './hooks.ts';

export function claudeInstallTarget(ctx: TargetContext): InstallTarget {
  const path = join(ctx.homes.config, 'settings.json');
  return {
    edits: [jsonHooksEdit({ path, harness: 'claude', events: CLAUDE_HOOK_EVENTS, command: (e) => hookCommand(ctx, 'claude', e), matcher: true, timeoutS: (e) => hookTimeoutS(e, 'Stop') })],
    accepted() {
      const text = readConfigText(path);
      const off = text !== null && /"disableAllHooks"\s*:\s*true/.test(text);
      return off ? { accepted: false, detail: 'settings.json sets disableAllHooks' } : { accepted: true, detail: 'loaded by Claude Code (hot reload; --bare skips user hooks)' };
    },
  };
}
