/**
 * The CLI: a thin typed client of the daemon's API. Each command is a small module loaded lazily,
 * so `muster status` never loads the HTTP framework or the SQLite driver.
 */
import { parseArgs } from './args.ts';
import { printError, printOk, usageError } from './output.ts';
import type { CommandModule } from './command.ts';
import { MusterError } from '../errors/index.ts';
import { HARNESSES, type Harness } from '../sources/session.ts';

const COMMANDS: Record<string, { load: () => Promise<CommandModule>; summary: string }> = {
  serve: { load: () => import('./commands/serve.ts'), summary: 'serve [--port N]        run the daemon in the foreground' },
  up: { load: () => import('./commands/up.ts'), summary: 'up [--port N]           start the daemon in the background; prints { ok, pid, boardUrl, mcpUrl }' },
  down: { load: () => import('./commands/down.ts'), summary: 'down                    stop the daemon' },
  status: { load: () => import('./commands/status.ts'), summary: 'status                  is the daemon running? (never starts one)' },
  url: { load: () => import('./commands/url.ts'), summary: 'url                     the board URL with its token' },
  ls: { load: () => import('./commands/ls.ts'), summary: 'ls [--live] [--harness H] [--status S] [--cwd DIR] [--json]   every session' },
  show: { load: () => import('./commands/show.ts'), summary: 'show <id>               one session' },
  focus: { load: () => import('./commands/focus.ts'), summary: 'focus <id>              bring a live session\'s tmux/herdr pane to the front' },
  resume: { load: () => import('./commands/resume.ts'), summary: 'resume <id> [--print]   reopen a dormant session in a new pane (live: focus); --print: { argv, cwd } only' },
  end: { load: () => import('./commands/end.ts'), summary: 'end <id>                end a live session with its harness\'s clean signal' },
  goal: { load: () => import('./commands/goal.ts'), summary: 'goal set|pause|resume|clear|show|ls|run …   drive a session to a verified finish line (muster goal --help)' },
  hook: { load: () => import('./commands/hook.ts'), summary: 'hook <harness> <event>  (called by harness hooks) post a hook event to the daemon; always exits 0 within 250 ms, no envelope' },
  hooks: { load: () => import('./commands/hooks.ts'), summary: 'hooks install|uninstall|status [--harness H]   status hooks in each harness\'s own config' },
  pages: { load: () => import('./commands/pages.ts'), summary: 'pages [--pending] [--status S] [--kind K] [--session ID]   the operator inbox: { ok, pages, counts }' },
  answer: { load: () => import('./commands/answer.ts'), summary: 'answer <pageId> <text> | --choice N   answer a page (N: 0-based index into its choices)' },
  tui: { load: () => import('./commands/tui.ts'), summary: 'tui                     the operator TUI (what `muster` with no command opens on a terminal)' },
};

export const COMMAND_NAMES = Object.keys(COMMANDS);

export function usage(): string {
  return [
    'muster — see and steer every coding-agent session on this machine',
    '',
    'Usage: muster <command> [options]',
    '',
    ...Object.values(COMMANDS).map((c) => `  muster ${c.summary}`),
    '  muster <harness> [--name NAME] [args...]   run claude, codex, opencode, pi or omp wired to Muster (terminal inherited)',
    '',
    'Every command prints one JSON envelope on stdout ({ "ok": true, ... }); failures go to stderr',
    'as { "ok": false, "error": { "code", "message" } } with a non-zero exit.',
    'Environment: MUSTER_HOME (default ~/.muster), MUSTER_PORT (default 6878).',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === undefined) {
      // BEHAVIOUR B: on a terminal the operator TUI; otherwise (piped, scripted) the status envelope.
      const interactive = Boolean(process.stdout.isTTY && process.stdin.isTTY);
      const mod = await COMMANDS[interactive ? 'tui' : 'status']!.load();
      return await mod.run({ args: [], flags: {}, env: process.env, tty: interactive });
    }
    if (name === 'help' || name === '--help' || name === '-h') {
      process.stderr.write(`${usage()}\n`);
      return 0;
    }
    if (name === '--version') {
      const { VERSION } = await import('../daemon/identity.ts');
      printOk({ version: VERSION });
      return 0;
    }
    if ((HARNESSES as readonly string[]).includes(name)) {
      // Harness ids and command names share the first argument (BEHAVIOUR B): refuse a clash outright.
      const { collidingHarnesses } = await import('../launch/installed.ts');
      const clash = collidingHarnesses(COMMAND_NAMES);
      if (clash.length > 0) throw new MusterError('usage', `harness id(s) ${clash.join(', ')} collide with Muster commands; this build cannot launch them`);
      const wrap = await import('./commands/wrap.ts');
      return await wrap.runWrapper(name as Harness, rest, process.env);
    }
    if (name === 'hook') {
      // Harness hooks run this on every event: skip argument parsing and process.stdout.isTTY (which loads
      // the stream and tty modules, ~13 ms of CPU) — the hook takes its words raw and prints no envelope.
      return await (await COMMANDS.hook!.load()).run({ args: rest, flags: {}, env: process.env, tty: false });
    }
    // Own keys only: `muster constructor` is an unknown command, not Object's constructor.
    const cmd = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!cmd) {
      const { installedHarnesses } = await import('../launch/installed.ts');
      const installed = installedHarnesses();
      throw usageError(`unknown command or harness '${name}' (harnesses installed here: ${installed.length ? installed.join(', ') : 'none'}; known: ${HARNESSES.join(', ')})`);
    }
    const { positional, flags } = parseArgs(rest);
    if (flags.help) {
      process.stderr.write(`${usage()}\n`);
      return 0;
    }
    const mod = await cmd.load();
    return await mod.run({ args: positional, flags, env: process.env, tty: Boolean(process.stdout.isTTY) });
  } catch (e) {
    return printError(e);
  }
}
