/**
 * Classifying Codex processes by argv: exec, the managed daemon, TUIs (daemon-backed or embedded), helpers.
 * Pure: takes argv/exe as the process table reports them; never reads /proc itself.
 */
import { isUuid } from '../../../core/ids.ts';

/**
 * - `daemon`: the managed app-server (`app-server … --managed-daemon`), shared by every TUI of a CODEX_HOME.
 * - `app-server`: an app-server that is not the managed daemon (an IDE's stdio server); holds its threads itself.
 * - `exec`: `codex exec …` (embedded app-server; its process holds the thread lock).
 * - `tui`: an interactive session (`codex`, `codex resume`, `codex fork`), daemon client or embedded.
 * - `helper`: sandbox helpers, `--codex-run-as-*` re-execs, the daemon's pid-update-loop.
 * - `subcommand`: any other non-interactive subcommand (`login`, `mcp`, `queue`, `agents`…).
 * - `other`: not Codex at all.
 */
export type CodexProcessKind = 'daemon' | 'app-server' | 'exec' | 'tui' | 'helper' | 'subcommand' | 'other';

export interface CodexProcessClass {
  kind: CodexProcessKind;
  /** True when the process is the npm shim (`node …/bin/codex.js`) rather than the native binary. */
  shim: boolean;
  /** Arguments after the program (after the script for the shim). */
  args: string[];
  /** For `tui`: the thread it names (`codex resume <uuid>`), or a name to resolve, else null. */
  names: { id: string | null; name: string | null } | null;
}

/** Subcommands that open an interactive session on a thread. `fork` creates a new thread. */
const INTERACTIVE = new Set(['resume', 'fork']);
/** Known non-interactive subcommands; `agents` is a command centre and owns no thread. */
const SUBCOMMANDS = new Set([
  'exec', 'e', 'review', 'login', 'logout', 'mcp', 'mcp-server', 'marketplace', 'plugin', 'app-server', 'app', 'completion',
  'sandbox', 'debug', 'apply', 'a', 'cloud', 'features', 'queue', 'agents', 'doctor', 'help', 'proto', 'responses-api-proxy',
  'stdio-to-uds', 'generate-ts', 'execpolicy', 'update',
]);
/** Global flags that take a value as the next argument (when not written `--flag=value`). */
const VALUE_FLAGS = new Set([
  '-c', '--config', '-m', '--model', '-p', '--profile', '-s', '--sandbox', '-a', '--ask-for-approval', '-C', '--cd',
  '-i', '--image', '--enable', '--disable', '--add-dir', '--local-provider', '--remote', '--oss-provider',
]);

function base(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? p : p.slice(i + 1);
}

/** True for the native binary's name, the shim script's name, or a versioned copy (`codex-0.171.0`). */
function isCodexProgram(p: string): boolean {
  const b = base(p);
  return b === 'codex' || b === 'codex.js' || b === 'codex.exe';
}

function isNode(p: string): boolean {
  return /^(node|nodejs|bun)(\d+)?$/.test(base(p));
}

/** Splits argv into program args; null when the process is not Codex (native or behind the npm shim). */
function codexArgs(argv: string[], exe: string | null): { shim: boolean; args: string[] } | null {
  const [a0, a1] = argv;
  if (a0 === undefined) return null;
  if (isCodexProgram(a0)) return { shim: base(a0) === 'codex.js', args: argv.slice(1) };
  if (isNode(a0) || (exe !== null && isNode(exe))) {
    // `node [node flags] /…/bin/codex(.js) args`: skip node's own options first.
    let i = 1;
    while (i < argv.length && (argv[i] ?? '').startsWith('-')) i++;
    const script = argv[i];
    if (script !== undefined && isCodexProgram(script)) return { shim: true, args: argv.slice(i + 1) };
    return null;
  }
  // A process that rewrote argv[0] (rare) still has its exe.
  if (exe !== null && isCodexProgram(exe) && a1 !== undefined) return { shim: false, args: argv.slice(1) };
  if (base(a0).startsWith('codex-linux-sandbox') || base(a0) === 'codex-code-mode-host') return { shim: false, args: argv.slice(1) };
  return null;
}

/** Positional arguments after global flags (flag values skipped). Stops at `--`. */
function positionals(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--') { out.push(...args.slice(i + 1)); break; }
    if (a.startsWith('-')) {
      if (!a.includes('=') && VALUE_FLAGS.has(a)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

export function classifyCodexProcess(argv: string[], exe: string | null): CodexProcessClass {
  const other: CodexProcessClass = { kind: 'other', shim: false, args: [], names: null };
  const parsed = codexArgs(argv, exe);
  if (!parsed) return other;
  const { shim, args } = parsed;
  const prog = base(argv[0] ?? '');
  const make = (kind: CodexProcessKind, names: CodexProcessClass['names'] = null): CodexProcessClass => ({ kind, shim, args, names });
  if (prog.startsWith('codex-linux-sandbox') || prog === 'codex-code-mode-host') return make('helper');
  if (args.some((a) => a.startsWith('--codex-run-as-'))) return make('helper');
  const pos = positionals(args);
  const sub = pos[0];
  if (sub === 'app-server') {
    if (pos[1] === 'daemon') return make('helper'); // `app-server daemon pid-update-loop|stop|…`
    return make(args.includes('--managed-daemon') ? 'daemon' : 'app-server');
  }
  if (sub === 'exec' || sub === 'e') return make('exec');
  if (sub !== undefined && INTERACTIVE.has(sub)) {
    if (sub === 'fork') return make('tui', { id: null, name: null });
    const target = pos[1];
    if (target === undefined || args.includes('--last')) return make('tui', { id: null, name: null });
    return make('tui', isUuid(target) ? { id: target.toLowerCase(), name: null } : { id: null, name: target });
  }
  if (sub !== undefined && SUBCOMMANDS.has(sub)) return make('subcommand');
  // No subcommand (or a prompt as the first positional): the interactive TUI.
  return make('tui', { id: null, name: null });
}

/**
 * True when `a`'s parent `b` is the npm shim of the same invocation (they count once, as one TUI):
 * the shim runs the native binary with the same arguments.
 */
export function isShimPair(parent: CodexProcessClass, child: CodexProcessClass): boolean {
  return parent.shim && !child.shim && parent.kind === child.kind &&
    parent.args.length === child.args.length && parent.args.every((a, i) => a === child.args[i]);
}
