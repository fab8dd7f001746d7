/**
 * `muster hooks install --harness codex`: hook entries in `$CODEX_HOME/hooks.json` and a top-level
 * `notify` in config.toml (unless the user has their own). Codex runs a hook only once it is trusted
 * (`[hooks.state."<path>:<event>:<group>:<handler>"] trusted_hash` in config.toml), which the person
 * does once in Codex's /hooks; notify needs no trust.
 */
import { join } from 'node:path';
import { hookCommand } from '../../launch/plan-types.ts';
import { jsonHooksEdit } from '../../hooks/install/json-hooks.ts';
import { readConfigText, type InstallTarget, type TargetContext } from '../../hooks/install/target.ts';
import { hookTimeoutS } from '../../hooks/stop-wait.ts';
import { CODEX_HOOK_EVENTS } from './hooks.ts';
import { codexNotifyEdit } from './notify-toml.ts';

const snake = (e: string) => e.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

/** How many of Muster's handlers in hooks.json Codex trusts. */
function trust(hooksPath: string, configPath: string): { accepted: boolean; detail: string } {
  let doc: { hooks?: Record<string, { hooks?: { command?: string }[] }[]> };
  try {
    doc = JSON.parse(readConfigText(hooksPath) ?? '{}') as typeof doc;
  } catch {
    return { accepted: false, detail: 'hooks.json does not parse' };
  }
  const config = readConfigText(configPath) ?? '';
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
}

export function codexInstallTarget(ctx: TargetContext): InstallTarget {
  const hooksPath = join(ctx.homes.config, 'hooks.json');
  const configPath = join(ctx.homes.config, 'config.toml');
  return {
    edits: [
      jsonHooksEdit({ path: hooksPath, harness: 'codex', events: CODEX_HOOK_EVENTS, command: (e) => hookCommand(ctx, 'codex', e), matcher: false, timeoutS: (e) => hookTimeoutS(e, undefined) }),
      codexNotifyEdit(configPath, [...ctx.hookArgv, 'codex', 'notify']),
    ],
    accepted: () => trust(hooksPath, configPath),
  };
}
