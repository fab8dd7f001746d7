/**
 * `muster <harness> [--name NAME] [harness args…]`: start the daemon if needed (a
 * person is starting an agent; once it runs, nothing here starts a daemon again),
 * register a launch, write the per-process config (0600, MUSTER_HOME/launch/<id>/), then run the
 * harness in the foreground wired to Muster and return its exit code. The user's own config files
 * are never edited. No envelope: the terminal belongs to the harness; wrapper failures go to stderr.
 * Opened by `muster new` (MUSTER_START_FILE), it also takes the launch's id, directory, environment and
 * first arguments from the daemon's start file (launch/start-spec.ts).
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MusterError } from '../../errors/index.ts';
import { callApi, callRunningApi, clientContext, ensureDaemon } from '../daemon-client.ts';
import { installedHarnesses, whichBin } from '../../launch/installed.ts';
import { newLaunchId } from '../../launch/launch-id.ts';
import { planLaunch, splitWrapperArgs } from '../../launch/plan.ts';
import { musterHookArgv } from '../../launch/hook-argv.ts';
import { adapterFor } from '../../harnesses/registry.ts';
import { readStatusAsset } from '../../harnesses/status-assets/index.ts';
import { runChild } from '../../launch/run-child.ts';
import { startFromEnv } from '../../launch/start-spec.ts';
import { readConfigText } from '../../hooks/install/target.ts';
import type { Harness } from '../../core/session.ts';

export async function runWrapper(harness: Harness, rawArgs: string[], outerEnv: NodeJS.ProcessEnv): Promise<number> {
  // Opened by `muster new`: the launch id, the first prompt and the daemon's environment come in a start file.
  const start = startFromEnv(harness, outerEnv);
  const env = start?.env ?? outerEnv;
  const bin = whichBin(adapterFor(harness).bin, env);
  if (!bin) {
    const installed = installedHarnesses(env);
    throw new MusterError('invalid_argument', `${harness} is not installed (not on PATH); harnesses installed here: ${installed.length ? installed.join(', ') : 'none'}`);
  }
  const split = splitWrapperArgs(rawArgs);
  const name = split.name;
  const rest = [...split.rest, ...(start?.spec.args ?? [])];
  const ctx = clientContext(env);
  const loc = await ensureDaemon(ctx);
  if (!loc.token) throw new MusterError('daemon_unreachable', `cannot read the token at ${ctx.paths.token}`);
  const launchId = start?.spec.launchId ?? newLaunchId();
  const launchDir = join(ctx.paths.home, 'launch', launchId);
  const cwd = start?.spec.cwd ?? process.cwd();
  const plan = planLaunch({ harness, launchId, name, args: rest, cwd, api: loc.urls.api, mcpUrl: loc.urls.mcp, token: loc.token, tokenFile: ctx.paths.token, launchDir, hookArgv: musterHookArgv(), env, homes: adapterFor(harness).homes(env), asset: (n) => readStatusAsset(n) });
  for (const r of plan.requires ?? []) {
    if (!readConfigText(r.path)?.includes(r.contains)) throw new MusterError('invalid_argument', r.fix);
  }
  mkdirSync(launchDir, { recursive: true, mode: 0o700 });
  try {
    for (const f of plan.files) {
      mkdirSync(dirname(f.path), { recursive: true, mode: 0o700 });
      writeFileSync(f.path, f.content, { mode: f.mode });
      chmodSync(f.path, f.mode);
    }
    await callApi(ctx, 'POST', '/launches', { id: launchId, harness, name, cwd, sessionId: plan.sessionId, pid: null });
    if (env.MUSTER_DEBUG) for (const n of plan.notes) process.stderr.write(`[muster] ${n}\n`);
    const code = await runChild({
      bin,
      argv: plan.argv,
      env: { ...env, ...plan.env },
      cwd,
      onSpawn: (pid) => void callRunningApi(ctx, 'PATCH', `/launches/${launchId}`, { pid }).catch(() => {}),
    });
    // The harness has exited: report it to a running daemon, never start one (`muster down` stays down).
    await callRunningApi(ctx, 'PATCH', `/launches/${launchId}`, { exitCode: code }).catch(() => {});
    return code;
  } finally {
    // The directory holds the token; the harness has read it by now.
    rmSync(launchDir, { recursive: true, force: true });
  }
}
