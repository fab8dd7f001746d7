/**
 * The CLI: a thin typed client of the daemon's API. Each command is a small module loaded lazily,
 * so `muster status` never loads the HTTP framework or the SQLite driver. Arguments are parsed
 * strictly per command (args.ts, command-specs.ts); `muster hook` and `muster <harness>` take theirs raw.
 */
import { commandHelp, parseCommandArgs } from './args.ts';
import { COMMANDS, RAW_COMMANDS } from './command-specs.ts';
import { printError, printOk, usageError } from './output.ts';
import { MusterError } from '../errors/index.ts';
import { type Harness } from '../core/session.ts';
import { HARNESS_NAMES as HARNESSES } from '../harnesses/names.ts';

export const COMMAND_NAMES = [...COMMANDS.keys(), 'hook'];

export function usage(): string {
  const lines = [...COMMANDS.values(), ...RAW_COMMANDS].map((c) => [`muster ${c.synopsis}`, c.summary] as const);
  return [
    'muster — see and steer every coding-agent session on this machine',
    '',
    'Usage: muster <command> [options]      muster <command> --help: that command\'s usage',
    '',
    ...lines.flatMap(([synopsis, summary]) => [`  ${synopsis}`, `      ${summary}`]),
    '',
    'Every command prints one JSON envelope on stdout ({ "ok": true, ... }); failures go to stderr',
    'as { "ok": false, "error": { "code", "message" } } with a non-zero exit (2: usage).',
    'Environment: MUSTER_HOME (default ~/.muster), MUSTER_PORT (default 6878), MUSTER_FLEET_URL (the fleet database to join).',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === undefined) {
      // On a terminal the operator TUI; otherwise (piped, scripted) the status envelope.
      const interactive = Boolean(process.stdout.isTTY && process.stdin.isTTY);
      const mod = await COMMANDS.get(interactive ? 'tui' : 'status')!.load();
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
      // Harness ids and command names share the first argument : refuse a clash outright.
      const { collidingHarnesses } = await import('../launch/installed.ts');
      const clash = collidingHarnesses(COMMAND_NAMES);
      if (clash.length > 0) throw new MusterError('usage', `harness id(s) ${clash.join(', ')} collide with Muster commands; this build cannot launch them`);
      // Every argument but --name belongs to the harness, --help included.
      const wrap = await import('./commands/wrap.ts');
      return await wrap.runWrapper(name as Harness, rest, process.env);
    }
    if (name === 'hook') {
      // Harness hooks run this on every event: skip argument parsing and process.stdout.isTTY (which loads
      // the stream and tty modules, ~13 ms of CPU) — the hook takes its words raw, tolerates any, prints no envelope.
      if (rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h')) {
        process.stderr.write(`Usage: muster ${RAW_COMMANDS[0]!.synopsis}\n\n${RAW_COMMANDS[0]!.summary}\n`);
        return 0;
      }
      return await (await import('./commands/hook.ts')).run({ args: rest, flags: {}, env: process.env, tty: false });
    }
    // A reader that goes away early (`muster ls --json | head -c 100`) is not a failure: stop quietly, as cat does.
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
    const spec = COMMANDS.get(name);
    if (!spec) {
      const { installedHarnesses } = await import('../launch/installed.ts');
      const installed = installedHarnesses();
      throw usageError(`unknown command or harness '${name}' (harnesses installed here: ${installed.length ? installed.join(', ') : 'none'}; known: ${HARNESSES.join(', ')})`);
    }
    const parsed = parseCommandArgs(name, spec, rest);
    if (parsed.help) {
      process.stderr.write(`${commandHelp(parsed.spec)}\n`);
      return 0;
    }
    const mod = await parsed.spec.load();
    return await mod.run({ args: parsed.positional, flags: parsed.flags, env: process.env, tty: Boolean(process.stdout.isTTY) });
  } catch (e) {
    return printError(e);
  }
}
