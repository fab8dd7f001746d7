/**
 * End-to-end kit: runs the real, built CLI (bin/muster.js → dist/cli.js) as child processes with
 * MUSTER_HOME in a temp dir, and talks to the real daemon over HTTP on 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(REPO, 'bin', 'muster.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The single JSON envelope on stdout (success) or stderr (failure), parsed. */
  json: Record<string, unknown> & { ok: boolean; error?: { code: string; message: string } };
}

export function tempHome(prefix = 'muster-e2e-'): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** Environment for a daemon isolated in `home`: its own MUSTER_HOME and HOME, no harness homes of the machine. */
export function envFor(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, MUSTER_HOME: home, MUSTER_PORT: '0', HOME: home };
  for (const k of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'XDG_DATA_HOME', 'PI_CODING_AGENT_DIR', 'GEMINI_CLI_HOME', 'TMUX', 'TMUX_PANE']) delete env[k];
  return { ...env, ...extra };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, opts: { timeoutMs?: number; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const text = (code === 0 ? stdout : stderr).trim().split('\n').filter((l) => l.startsWith('{')).at(-1) ?? '{}';
      let json: CliResult['json'];
      try {
        json = JSON.parse(text) as CliResult['json'];
      } catch {
        json = { ok: false, error: { code: 'unparseable', message: text } };
      }
      resolve({ code, stdout, stderr, json });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Starts `muster serve` in the foreground; resolves once its envelope is printed. */
export function startServe(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ child: ChildProcess; envelope: Record<string, unknown> & { boardUrl: string; pid: number } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line && out.includes('\n')) {
        clearTimeout(timer);
        resolve({ child, envelope: JSON.parse(line) });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

export function waitExit(child: ChildProcess, timeoutMs = 10_000): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    const t = setTimeout(() => reject(new Error('process did not exit in time')), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface UntilOptions {
  /** Poll interval, ms. Default: 50. */
  stepMs?: number;
  /** Extra text for the timeout error (e.g. the screen or the last listing). */
  detail?: () => Promise<string> | string;
}

/** Polls `fn` until it returns something other than undefined; throws naming `what` after `ms`. */
export async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, ms = 10_000, opts: UntilOptions = {}): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms${opts.detail ? `\n${await opts.detail()}` : ''}`);
    await sleep(opts.stepMs ?? 50);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Splits a board URL with ?token= into its base and token. */
export function splitBoardUrl(url: string): { base: string; token: string; port: number } {
  const u = new URL(url);
  return { base: `${u.protocol}//${u.host}`, token: u.searchParams.get('token') ?? '', port: Number(u.port) };
}
