/**
 * How `muster new` hands a launch to the wrapper it opens in a pane: a start file, 0600 in the
 * launch's own 0700 directory (`MUSTER_HOME/launch/<launch id>/start.json`), named to the wrapper by
 * `MUSTER_START_FILE`. It carries the launch id the daemon already answered with, the harness
 * arguments (the first prompt among them) and the daemon's environment — the one it discovers
 * sessions with, so the new session is written where the daemon reads, and which may hold API keys:
 * a file keeps all of it off command lines, which every user can read in /proc. The wrapper takes the
 * file (reads, then deletes it) before the harness starts.
 */
import { chmodSync, closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MusterError } from '../errors/index.ts';
import { ADAPTERS, isHarness } from '../harnesses/registry.ts';
import type { Harness } from '../core/session.ts';
import { isLaunchId } from './launch-id.ts';

/** The variable that names the start file to the wrapper. */
export const START_FILE_ENV = 'MUSTER_START_FILE';

export interface StartSpec {
  version: 1;
  launchId: string;
  harness: Harness;
  /** Absolute directory the harness runs in. */
  cwd: string;
  /** Harness arguments appended to the wrapper's own (the adapter's startArgs). */
  args: string[];
  /** Laid over the pane's environment (its terminal's variables stay). */
  env: Record<string, string>;
}

/** Variables that belong to one terminal, pane or process, never carried into another pane. */
const TERMINAL_VARS = /^(TERM|TERM_PROGRAM|TERM_PROGRAM_VERSION|TERM_SESSION_ID|COLORTERM|COLUMNS|LINES|PWD|OLDPWD|SHLVL|_|STY|WINDOW|WINDOWID|VTE_VERSION|SSH_TTY|GPG_TTY|TMUX|TMUX_PANE|INVOCATION_ID|JOURNAL_STREAM)$|^(HERDR|ZELLIJ|KITTY|WEZTERM|ALACRITTY|ITERM|KONSOLE|WT)_/;
/** Muster's own variables that mean something beyond one process; every other MUSTER_* (a launch's identity, a pipe's fd) stays behind. */
const MUSTER_KEPT = new Set(['MUSTER_DEBUG', 'MUSTER_TMUX_SOCKET', 'MUSTER_HOOK_TIMEOUT_MS', 'MUSTER_BUILD_ID', 'MUSTER_AUDITOR_BASE_URL', 'MUSTER_AUDITOR_API_KEY']);

/** What each harness sets in the processes it starts (a daemon started from an agent's shell has them). */
const HARNESS_PROCESS_VARS = new Set(ADAPTERS.flatMap((a) => a.processEnv ?? []));

/**
 * The environment a launch carries: the daemon's, minus the above and the harnesses' own process
 * markers, with MUSTER_HOME fixed to the daemon's home.
 */
export function startEnv(env: NodeJS.ProcessEnv, musterHome: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || TERMINAL_VARS.test(k) || HARNESS_PROCESS_VARS.has(k)) continue;
    if (k.startsWith('MUSTER_') && !MUSTER_KEPT.has(k)) continue;
    out[k] = v;
  }
  out.MUSTER_HOME = musterHome;
  return out;
}

export function startFilePath(musterHome: string, launchId: string): string {
  return join(musterHome, 'launch', launchId, 'start.json');
}

/** Writes the start file (its directory 0700, the file 0600, never over an existing one); returns its path. */
export function writeStartSpec(musterHome: string, spec: StartSpec): string {
  const dir = join(musterHome, 'launch', spec.launchId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const path = startFilePath(musterHome, spec.launchId);
  writeFileSync(path, JSON.stringify(spec), { mode: 0o600, flag: 'wx' });
  return path;
}

const bad = (why: string) => new MusterError('invalid_argument', `the start file named by ${START_FILE_ENV} ${why}`);

/** Checks the parsed file's shape; never trusts a field it did not check. */
function specOf(v: unknown, harness: Harness): StartSpec {
  const o = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  if (o.version !== 1 || !isLaunchId(o.launchId) || !isHarness(o.harness)) throw bad('is not a start file of this Muster');
  if (o.harness !== harness) throw bad(`is for ${o.harness}, not ${harness}`);
  if (typeof o.cwd !== 'string' || !o.cwd.startsWith('/')) throw bad('names no absolute directory');
  if (!Array.isArray(o.args) || !o.args.every((a) => typeof a === 'string')) throw bad('has malformed arguments');
  const env = (o.env && typeof o.env === 'object' ? o.env : null) as Record<string, unknown> | null;
  if (!env || !Object.values(env).every((x) => typeof x === 'string')) throw bad('has a malformed environment');
  return { version: 1, launchId: o.launchId, harness: o.harness, cwd: o.cwd, args: o.args as string[], env: env as Record<string, string> };
}

/**
 * The wrapper's side: reads the start file and deletes it (it may hold keys), refusing one that is not a
 * regular file private to this user, or not for `harness`.
 */
export function takeStartSpec(path: string, harness: Harness): StartSpec {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    throw bad(`cannot be opened: ${(e as Error).message}`);
  }
  let text: string;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw bad('is not a regular file');
    if ((st.mode & 0o077) !== 0 || (process.getuid && st.uid !== process.getuid())) throw bad('is not private to this user');
    text = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  unlinkSync(path);
  // Its directory held only this file; the wrapper makes it again for the launch's own files.
  try {
    rmdirSync(dirname(path));
  } catch {}
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw bad('is not JSON');
  }
  return specOf(parsed, harness);
}

/**
 * The wrapper's environment and start: null when no start file is named (an ordinary `muster <harness>`),
 * else the spec and the environment to run in — the pane's own with the daemon's laid over it.
 */
export function startFromEnv(harness: Harness, env: NodeJS.ProcessEnv): { spec: StartSpec; env: NodeJS.ProcessEnv } | null {
  const path = env[START_FILE_ENV];
  if (!path) return null;
  const spec = takeStartSpec(path, harness);
  const merged: NodeJS.ProcessEnv = { ...env, ...spec.env };
  delete merged[START_FILE_ENV];
  return { spec, env: merged };
}
