/**
 * `muster hooks install|uninstall|status [--harness H]`: Muster's status push in each harness's own
 * configuration, for agents started the ordinary way. Default harnesses: those on PATH.
 * Prints { ok, action, harnesses: [{ harness, files: [{ path, action }], accepted, detail }] };
 * a config file that does not parse is left untouched and fails the command (config_malformed).
 */
import { resolve } from 'node:path';
import { MusterError } from '../../errors/index.ts';
import { resolvePaths } from '../../daemon/paths.ts';
import { createInstaller, type EditResult } from '../../hooks/install/index.ts';
import { readStatusAsset } from '../../harnesses/status-assets/index.ts';
import { musterHookArgv } from '../../launch/hook-argv.ts';
import { installedHarnesses } from '../../launch/installed.ts';
import type { Harness } from '../../core/session.ts';
import { adapterFor, HARNESSES } from '../../harnesses/registry.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';

const ACTIONS = ['install', 'uninstall', 'status'] as const;

export async function run({ args, flags, env }: CommandContext): Promise<number> {
  const action = args[0] as (typeof ACTIONS)[number] | undefined;
  if (!action || !ACTIONS.includes(action)) throw usageError('usage: muster hooks install|uninstall|status [--harness H]');
  const only = flags.harness;
  if (only !== undefined && (typeof only !== 'string' || !(HARNESSES as readonly string[]).includes(only))) {
    throw usageError(`--harness must be one of ${HARNESSES.join(', ')}`);
  }
  const harnesses: Harness[] = only ? [only as Harness] : installedHarnesses(env);
  const installer = createInstaller(resolve(resolvePaths(env).home, 'hooks'));
  const hookArgv = musterHookArgv();
  const out = [];
  const malformed: EditResult[] = [];
  for (const h of harnesses) {
    const adapter = adapterFor(h);
    const target = adapter.installTarget({ env, homes: adapter.homes(env), hookArgv, asset: (name) => readStatusAsset(name) });
    // Uninstall in reverse order: a file's directories go with it once the files written after it are gone.
    const edits = action === 'uninstall' ? [...target.edits].reverse() : target.edits;
    const files = edits.map((e): EditResult => {
      if (action === 'install') return installer.install(e);
      if (action === 'uninstall') return installer.uninstall(e);
      const s = installer.status(e);
      return { path: e.path, action: s === 'installed' ? 'already-installed' : s };
    });
    const installed = files.every((f) => f.action === 'installed' || f.action === 'already-installed');
    // What an earlier version installed in another form goes on install as on uninstall.
    if (action !== 'status') files.push(...(target.retired ?? []).map((e) => installer.uninstall(e)).filter((r) => r.action !== 'not-installed'));
    malformed.push(...files.filter((f) => f.action === 'malformed'));
    out.push({ harness: h, installed: action === 'uninstall' ? false : installed, files, ...(action === 'uninstall' ? {} : target.accepted()) });
  }
  if (malformed.length > 0) {
    throw new MusterError('config_malformed', malformed.map((m) => m.message ?? `${m.path} does not parse`).join('; '), { details: { harnesses: out } });
  }
  printOk({ action, harnesses: out });
  return 0;
}
