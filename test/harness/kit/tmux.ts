/**
 * A private tmux server per test (`tmux -S <root>/tmux.sock`), for driving interactive TUIs.
 * Every command is bounded in time; panes run with exactly the env they are given (`env -i`),
 * not the tmux server's, and stay visible after exit (remain-on-exit) so a failing test can
 * capture what the CLI printed.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface Pane {
  /** tmux pane id, e.g. `%3`. */
  id: string;
  /** pid of the process running in the pane (the command itself, exec'd by `env`). */
  pid: number;
}

export interface NewPaneOptions {
  cwd: string;
  /** Complete environment of the command. */
  env: NodeJS.ProcessEnv;
}

export interface Tmux {
  /** Socket path; `tmux -S <socket> attach` to watch a test live. */
  readonly socket: string;
  newPane(argv: string[], options: NewPaneOptions): Promise<Pane>;
  /** Sends keys; `literal` sends text as typed (`send-keys -l`), else tmux key names (`Enter`, `C-c`, `Escape`). */
  sendKeys(paneId: string, keys: string | string[], options?: { literal?: boolean }): Promise<void>;
  /** Visible screen plus scrollback of the pane, as plain text. */
  capture(paneId: string): Promise<string>;
  /** Polls the pane until `pattern` matches; resolves with the screen, rejects with it after `timeoutMs`. */
  waitForText(paneId: string, pattern: RegExp, timeoutMs: number): Promise<string>;
  /** Whether the pane's process has exited (with remain-on-exit the pane stays). */
  isDead(paneId: string): Promise<boolean>;
  /**
   * Kills the tmux server (SIGHUP to every pane), waits up to 10 s for the panes' processes to exit
   * (CLIs still write state while exiting; deleting the temp dir earlier races them), and removes
   * the socket. Idempotent.
   */
  kill(): Promise<void>;
}

/** Bound on any single tmux command, in ms. */
const COMMAND_TIMEOUT_MS = 10_000;
/** Bound on waiting for pane processes to exit after kill-server, in ms. */
const EXIT_WAIT_MS = 10_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitForExit(pids: Iterable<number>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(pids);
  while (pending.size > 0 && Date.now() < deadline) {
    for (const pid of pending) if (!alive(pid)) pending.delete(pid);
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 100));
  }
}

function run(socket: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('tmux', ['-S', socket, ...args], { timeout: COMMAND_TIMEOUT_MS, encoding: 'utf8', ...(env ? { env } : {}) }, (error, stdout, stderr) => {
      if (error) reject(new Error(`tmux ${args[0]} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
  });
}

export interface TmuxOptions {
  /**
   * The server's global environment (what windows the daemon opens, e.g. a resumed session, run
   * with). Default: this process's without the variables that say "this is a CI job" (CI=true makes
   * Gemini CLI 0.61.0 run headless even in a terminal: a resumed session would print "No input provided
   * via stdin" and exit). Panes made by newPane always get exactly their own env.
   */
  env?: NodeJS.ProcessEnv;
}

/** Variables CI services set that harness CLIs read as "no person at this terminal". */
const CI_MARKERS = ['CI', 'GITHUB_ACTIONS', 'CONTINUOUS_INTEGRATION', 'BUILD_NUMBER', 'RUN_ID'];

function serverEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of CI_MARKERS) delete env[k];
  return env;
}

export async function startTmux(root: string, options: TmuxOptions = {}): Promise<Tmux> {
  fs.mkdirSync(root, { recursive: true });
  const socket = path.join(root, 'tmux.sock');
  // -f /dev/null: no user tmux.conf. A placeholder window keeps the server up between panes.
  await run(socket, ['-f', '/dev/null', 'new-session', '-d', '-s', 'muster', '-n', 'idle', '-x', '200', '-y', '50', 'sleep', '86400'], options.env ?? serverEnv());
  await run(socket, ['set-option', '-g', 'remain-on-exit', 'on']);
  await run(socket, ['set-option', '-g', 'history-limit', '10000']);
  await run(socket, ['set-option', '-g', 'default-size', '200x50']);

  let killed: Promise<void> | undefined;
  const panePids = new Set<number>();
  const capture = async (paneId: string): Promise<string> => run(socket, ['capture-pane', '-p', '-J', '-S', '-', '-t', paneId]);
  return {
    socket,
    async newPane(argv, options) {
      const envArgs = Object.entries(options.env)
        .filter((e): e is [string, string] => e[1] !== undefined)
        .map(([k, v]) => `${k}=${v}`);
      // Several arguments after the options are exec'd directly by tmux (no shell quoting).
      const out = await run(socket, ['new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', '-t', 'muster', '-c', options.cwd, 'env', '-i', ...envArgs, ...argv]);
      const [id, pid] = out.trim().split(' ');
      if (id === undefined || pid === undefined) throw new Error(`tmux new-window printed ${JSON.stringify(out)}`);
      panePids.add(Number(pid));
      return { id, pid: Number(pid) };
    },
    async sendKeys(paneId, keys, options) {
      const list = Array.isArray(keys) ? keys : [keys];
      await run(socket, ['send-keys', '-t', paneId, ...(options?.literal ? ['-l'] : []), ...list]);
    },
    capture,
    async waitForText(paneId, pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      let screen = '';
      for (;;) {
        screen = await capture(paneId);
        if (pattern.test(screen)) return screen;
        if (Date.now() > deadline) throw new Error(`pane ${paneId}: ${pattern} not seen within ${timeoutMs} ms; screen:\n${screen}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async isDead(paneId) {
      return (await run(socket, ['display-message', '-p', '-t', paneId, '#{pane_dead}'])).trim() === '1';
    },
    kill() {
      killed ??= run(socket, ['kill-server'])
        .catch(() => undefined)
        .then(() => waitForExit(panePids, EXIT_WAIT_MS))
        .then(() => fs.rmSync(socket, { force: true }));
      return killed;
    },
  };
}
