/**
 * The daemon's child processes, behind the ports the domains declare: the desktop channel's
 * notify-send, the CLI auditors' runs, and a goal's headless next turn. argv arrays only, never a
 * shell; every runner is bounded or detached, and none throws.
 */
import { execFile, spawn } from 'node:child_process';
import type { RunResult } from '../pager/index.ts';
import type { CommandRunner } from '../goals/index.ts';
import type { Harness } from '../core/session.ts';
import { adapterFor } from '../harnesses/registry.ts';
import { hookCommand } from '../launch/plan-types.ts';
import { musterHookArgv } from '../launch/hook-argv.ts';

/** The desktop channel's runner: bounded to 5 s. */
export function runArgv(argv: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(argv[0] as string, argv.slice(1), { timeout: 5000 }, (err, _out, stderr) =>
      resolve(err ? { code: typeof err.code === 'number' ? err.code : null, error: `${err.message} ${stderr}`.trim() } : { code: 0 }),
    );
  });
}

/** The CLI auditors' runner (`claude -p`, `codex exec`…): bounded by the audit's timeout, output captured. */
export const runCommand: CommandRunner = (argv, o) =>
  new Promise((resolve) => {
    const child = execFile(argv[0] as string, argv.slice(1), { cwd: o.cwd, env: o.env, timeout: o.timeoutMs, killSignal: 'SIGTERM', maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      const error = err && (err.killed || typeof err.code !== 'number') ? (err.killed ? `timed out after ${o.timeoutMs} ms` : err.message) : null;
      resolve({ code, stdout, stderr, error });
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(o.input ?? '');
  });

/**
 * A goal's next turn when the turn-end hook cannot deliver it: the harness's headless continuation
 * with Muster's hooks injected (Claude: `claude --resume <id> -p <prompt> --settings <hooks>`),
 * detached, so its hooks keep driving the goal. The hooks find this daemon through MUSTER_HOME in the
 * inherited env.
 */
export function resumeHeadless(env: NodeJS.ProcessEnv, input: { harness: Harness; sessionId: string; prompt: string; cwd: string | null }): Promise<{ ok: true } | { ok: false; error: string }> {
  const cont = adapterFor(input.harness).headless.continueWithHooks;
  if (!cont) return Promise.resolve({ ok: false, error: `${input.harness} cannot take a next turn headless` });
  let hookArgv: string[];
  try {
    hookArgv = musterHookArgv();
  } catch {
    hookArgv = ['muster', 'hook'];
  }
  const { argv } = cont(input.sessionId, input.prompt, (e) => hookCommand({ hookArgv }, input.harness, e));
  return new Promise((resolve) => {
    const child = spawn(argv[0] as string, argv.slice(1), { cwd: input.cwd ?? undefined, env, detached: true, stdio: 'ignore' });
    child.once('error', (e) => resolve({ ok: false, error: e.message }));
    child.once('spawn', () => {
      child.unref();
      resolve({ ok: true });
    });
  });
}
