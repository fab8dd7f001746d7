/**
 * Runs a harness CLI headless (print/exec/run modes) as a real child process, bounded in time.
 * The child gets its own process group so a timeout ends it and everything it spawned.
 */
import { spawn } from 'node:child_process';

export interface RunCliOptions {
  cwd: string;
  /** Complete environment (e.g. harnessEnv().env). */
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. Default: stdin closed at once. */
  input?: string;
  /** SIGTERM to the group after this many ms, SIGKILL 5 s later. Default: 120000. */
  timeoutMs?: number;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export function runCli(bin: string, args: string[], options: RunCliOptions): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {}); // the CLI may exit before reading stdin
    child.stdin.end(options.input ?? '');
    const signalGroup = (sig: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {}
    };
    let hardKill: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup('SIGTERM');
      hardKill = setTimeout(() => signalGroup('SIGKILL'), 5000);
    }, options.timeoutMs ?? 120_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (hardKill) clearTimeout(hardKill);
      resolve({ code, signal, stdout, stderr, timedOut, durationMs: Date.now() - started });
    });
  });
}
