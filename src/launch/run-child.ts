/**
 * Runs the harness in the foreground: stdio inherited, exit code returned (128 + n for signal n).
 * Terminal signals (SIGINT, SIGQUIT, SIGTSTP) already reach the child through the terminal's
 * foreground process group, so the wrapper only ignores them; SIGTERM and SIGHUP sent to the
 * wrapper alone are forwarded.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export interface RunChildOptions {
  bin: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Called once the child has a pid. */
  onSpawn?(pid: number): void;
}

const FORWARDED = ['SIGTERM', 'SIGHUP'] as const;
const IGNORED = ['SIGINT', 'SIGQUIT'] as const;

export function runChild(opts: RunChildOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(opts.bin, opts.argv, { stdio: 'inherit', env: opts.env, cwd: opts.cwd });
    const forward = (sig: NodeJS.Signals) => () => {
      child.kill(sig);
    };
    const handlers = FORWARDED.map((s) => [s, forward(s)] as const);
    const ignore = () => {};
    for (const [s, h] of handlers) process.on(s, h);
    for (const s of IGNORED) process.on(s, ignore);
    const cleanup = () => {
      for (const [s, h] of handlers) process.off(s, h);
      for (const s of IGNORED) process.off(s, ignore);
    };
    child.once('spawn', () => {
      if (child.pid) opts.onSpawn?.(child.pid);
    });
    child.once('error', (e) => {
      cleanup();
      reject(e);
    });
    child.once('exit', (code, signal) => {
      cleanup();
      resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
    });
  });
}
