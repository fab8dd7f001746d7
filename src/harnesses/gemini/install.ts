/**
 * `muster hooks install --harness gemini`: Muster's extension (extension.ts) written into the user's
 * Gemini home, two files Muster owns outright; uninstall removes them and the directories install
 * created. Installing is also what `muster gemini` needs: Gemini CLI takes no per-process settings.
 */
import { join } from 'node:path';
import { hookCommand } from '../../launch/plan-types.ts';
import type { FileEdit } from '../../hooks/install/engine.ts';
import { readConfigText, type InstallTarget, type TargetContext } from '../../hooks/install/target.ts';
import { extensionHooks, extensionManifest, extensionPaths, isMusterExtensionFile } from './extension.ts';

/** A JSON file Muster owns (marked in its `description`): written whole, deleted on uninstall. */
function ownedJson(path: string, content: string): FileEdit {
  return { path, has: isMusterExtensionFile, add: () => content, remove: () => null };
}

type Json = Record<string, unknown>;

function readJson(path: string): Json | null {
  try {
    const v = JSON.parse(readConfigText(path) ?? 'null') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
}

/** What keeps Gemini from running the installed hooks, when something does. */
function refusal(home: string): string | null {
  const settings = readJson(join(home, 'settings.json'));
  if ((settings?.hooksConfig as Json | undefined)?.enabled === false) return 'settings.json sets hooksConfig.enabled false: Gemini runs no hooks';
  if (((settings?.admin as Json | undefined)?.extensions as Json | undefined)?.enabled === false) return 'settings.json sets admin.extensions.enabled false: Gemini loads no extension';
  const rules = ((readJson(join(home, 'extensions', 'extension-enablement.json'))?.muster as Json | undefined)?.overrides ?? []) as unknown[];
  if (rules.some((r) => typeof r === 'string' && r.startsWith('!'))) return 'extension-enablement.json disables the muster extension somewhere (`gemini extensions enable muster`)';
  return null;
}

export function geminiInstallTarget(ctx: TargetContext): InstallTarget {
  const paths = extensionPaths(ctx.homes.config);
  return {
    // The manifest first: uninstall goes in reverse, so the extension directory empties last.
    edits: [ownedJson(paths.manifest, extensionManifest()), ownedJson(paths.hooks, extensionHooks((e) => hookCommand(ctx, 'gemini', e)))],
    accepted() {
      if (!isMusterExtensionFile(readConfigText(paths.manifest)) || !isMusterExtensionFile(readConfigText(paths.hooks))) return { accepted: false, detail: 'the extension is not installed' };
      const why = refusal(ctx.homes.config);
      return why ? { accepted: false, detail: why } : { accepted: true, detail: 'loaded by every Gemini CLI started after install; its MCP server only under `muster gemini` (`-e` with a list of other extensions leaves it out)' };
    },
  };
}
