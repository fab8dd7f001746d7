/**
 * Classifying OpenCode processes by argv: the TUI, `run`, `serve`/`web`, `attach`, and other subcommands.
 * Pure: takes argv/exe/comm as the process table reports them; never reads /proc itself.
 */
import path from 'node:path';
import { isOpenCodeId } from '../ids.ts';

/**
 * - `tui`: the interactive client (`opencode [project]`), optionally serving HTTP with `--port`.
 * - `run`: one prompt then exit (`opencode run …`), or a client of a server with `--attach <url>`.
 * - `serve`: a headless server (`opencode serve` / `web`): runs any session a client asks it to.
 * - `attach`: a TUI client of a server (`opencode attach <url> -s <id>`): the server runs the turn.
 * - `other`: any other subcommand (`db`, `debug`, `mcp`, `models`…): owns no session.
 */
export type OpenCodeProcessKind = 'tui' | 'run' | 'serve' | 'attach' | 'other';

export interface OpenCodeProcessClass {
  kind: OpenCodeProcessKind;
  /** The session named by `-s/--session`, only when it has the exact `ses_` format. */
  sessionId: string | null;
  /** `-c/--continue`: the most recently updated session of the project. */
  continue: boolean;
  /** `--fork`: a new session is created from the named one, so the named one is not this process's. */
  fork: boolean;
  /** `--port N` when N is a usable TCP port (0 = random port is unusable: we could not find it). */
  port: number | null;
  /** `--hostname`, default 127.0.0.1. */
  hostname: string;
  /** The server URL this process is a client of (`attach <url>`, `run --attach <url>`). */
  attachUrl: string | null;
}

/** A Map: the first positional is any process's argv, and may be `constructor` or `__proto__`. */
const SESSION_SUBCOMMANDS = new Map<string, OpenCodeProcessKind>([['run', 'run'], ['serve', 'serve'], ['web', 'serve'], ['attach', 'attach']]);
/** Subcommands that own no session; anything else in first position is the TUI's project path. */
const OTHER_SUBCOMMANDS = new Set([
  'acp', 'mcp', 'auth', 'agent', 'upgrade', 'uninstall', 'models', 'stats', 'export', 'import', 'github', 'pr', 'session',
  'db', 'debug', 'completion', 'generate', 'plugin', 'help', 'providers',
]);
/** Flags that take the next argument as their value (when not written `--flag=value`). */
const VALUE_FLAGS = new Set([
  '-m', '--model', '-s', '--session', '--prompt', '--agent', '--port', '--hostname', '--log-level', '--format', '-f', '--file',
  '--title', '--attach', '--command', '--dir', '--variant', '--cors', '-p', '--password', '--username',
]);
const EXECUTABLE_NAMES = new Set(['opencode', 'opencode.exe']);

/**
 * True when the process is OpenCode's own binary: its executable, its argv[0] or its comm is `opencode`.
 * The npm launcher run through node (`node …/bin/opencode`) is deliberately not matched: the native child
 * it starts is the process that runs the session, so only that one is claimed and signalled.
 */
export function isOpenCodeProcess(p: { exe: string | null; argv: string[]; comm: string }): boolean {
  if (p.exe && EXECUTABLE_NAMES.has(path.basename(p.exe.replace(/ \(deleted\)$/, '')))) return true;
  const argv0 = p.argv[0];
  if (argv0 !== undefined && EXECUTABLE_NAMES.has(path.basename(argv0))) return true;
  return p.comm === 'opencode';
}

/** Parses an OpenCode argv (argv[0] included). Never throws. */
export function classifyOpenCodeArgv(argv: string[]): OpenCodeProcessClass {
  const out: OpenCodeProcessClass = {
    kind: 'tui', sessionId: null, continue: false, fork: false, port: null, hostname: '127.0.0.1', attachUrl: null,
  };
  const positionals: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') { positionals.push(...args.slice(i + 1)); break; }
    if (!arg.startsWith('-') || arg === '-') { positionals.push(arg); continue; }
    const eq = arg.indexOf('=');
    const flag = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    let value: string | undefined;
    if (eq > 0 && arg.startsWith('--')) value = arg.slice(eq + 1);
    else if (VALUE_FLAGS.has(flag)) value = args[++i];
    applyFlag(out, flag, value);
  }
  const first = positionals[0];
  if (first !== undefined) {
    const kind = SESSION_SUBCOMMANDS.get(first);
    if (kind) out.kind = kind;
    else if (OTHER_SUBCOMMANDS.has(first)) out.kind = 'other';
    // Otherwise the first positional is the TUI's project directory.
  }
  if (out.kind === 'attach' && positionals[1] !== undefined) out.attachUrl = positionals[1];
  return out;
}

function applyFlag(out: OpenCodeProcessClass, flag: string, value: string | undefined): void {
  switch (flag) {
    case '-s': case '--session':
      out.sessionId = value !== undefined && isOpenCodeId(value) ? value : null;
      break;
    case '-c': case '--continue': out.continue = true; break;
    case '--fork': out.fork = true; break;
    case '--port': {
      const n = Number(value);
      out.port = Number.isInteger(n) && n > 0 && n < 65536 ? n : null;
      break;
    }
    case '--hostname': if (value) out.hostname = value; break;
    case '--attach': out.attachUrl = value ?? null; break;
  }
}

/**
 * The loopback base URL of the HTTP API this process serves or uses, or null. Only loopback hosts are
 * used: Muster never sends requests about local sessions to another machine named in someone's argv.
 */
export function serverUrlOf(c: OpenCodeProcessClass): string | null {
  if (c.attachUrl) return loopbackBase(c.attachUrl);
  if (c.port === null || (c.kind !== 'tui' && c.kind !== 'serve')) return null;
  const host = c.hostname === '0.0.0.0' || c.hostname === '::' ? '127.0.0.1' : c.hostname;
  return loopbackBase(`http://${host.includes(':') ? `[${host}]` : host}:${c.port}`);
}

function loopbackBase(raw: string): string | null {
  let u: URL;
  try { u = new URL(raw); } catch { return null; }
  if (u.protocol !== 'http:') return null;
  const h = u.hostname;
  if (h !== '127.0.0.1' && h !== 'localhost' && h !== '[::1]' && h !== '::1') return null;
  return `${u.protocol}//${u.host}`;
}
