/**
 * Can the wrapper start `harness` here? Checked before a pane opens, because a wrapper that fails in a
 * new pane says so only in that pane, which closes with it: the harness's command must be on the
 * daemon's PATH (the environment the pane gets), and what its launch plan requires must be in place
 * (Gemini CLI's extension, installed once).
 */
import { join } from 'node:path';
import { adapterFor } from '../harnesses/registry.ts';
import type { Harness } from '../core/session.ts';
import { readConfigText } from '../hooks/install/target.ts';
import { whichBin } from '../launch/installed.ts';

export type Readiness = { ok: true } | { ok: false; message: string; fix: string | null };

export function harnessReadiness(harness: Harness, env: NodeJS.ProcessEnv, musterHome: string): Readiness {
  const a = adapterFor(harness);
  if (!whichBin(a.bin, env)) return { ok: false, message: `${a.label} is not installed here: no \`${a.bin}\` on the daemon's PATH`, fix: null };
  // The plan is pure: built with placeholders only to read what it requires; nothing is written.
  const plan = a.planLaunch({
    harness, launchId: 'lch_0000000000000000000000', name: null, args: [], cwd: musterHome, api: '', mcpUrl: '', token: '', tokenFile: '',
    launchDir: join(musterHome, 'launch', 'preflight'), hookArgv: ['muster', 'hook'], env, homes: a.homes(env), asset: () => '',
  });
  const missing = (plan.requires ?? []).find((r) => !readConfigText(r.path)?.includes(r.contains));
  return missing ? { ok: false, message: missing.fix, fix: missing.fix } : { ok: true };
}
