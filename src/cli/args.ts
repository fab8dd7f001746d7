/**
 * A command's arguments, parsed strictly by node:util parseArgs against its spec (command-specs.ts):
 * an unknown option, an option of another command, a missing or unexpected value, or an argument a
 * command does not take is a usage error (exit 2) that names it. `-h`/`--help` asks for the
 * command's usage. A positional that starts with `-` goes after `--`.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { MusterError } from '../errors/index.ts';
import { COMMANDS, type CommandSpec } from './command-specs.ts';

export interface ParsedArgs {
  /** The command's name and spec that parsed them (a subcommand's, `goal set`, for `goal set …`). */
  name: string;
  spec: CommandSpec;
  /** Positional arguments; for a command with subcommands the subcommand comes first. */
  positional: string[];
  flags: Record<string, string | boolean | undefined>;
  help: boolean;
}

type Options = NonNullable<ParseArgsConfig['options']>;

function optionsOf(spec: CommandSpec): Options {
  const out: Options = { help: { type: 'boolean', short: 'h' } };
  for (const [name, o] of Object.entries(spec.options ?? {})) out[name] = { type: o.type };
  return out;
}

/** A usage error that points at the command's own help. */
export function commandUsageError(name: string, message: string): MusterError {
  return new MusterError('usage', `muster ${name}: ${message}; run \`muster ${name} --help\``);
}

/** Where an unknown option belongs, to say so: `--print` given to `show` is `resume`'s. */
function ownersOf(option: string): string[] {
  const out: string[] = [];
  for (const [name, spec] of COMMANDS) {
    if (spec.options && Object.hasOwn(spec.options, option)) out.push(`muster ${name}`);
    for (const [sub, s] of Object.entries(spec.subcommands ?? {})) if (s.options && Object.hasOwn(s.options, option)) out.push(`muster ${name} ${sub}`);
  }
  return out;
}

function explain(name: string, spec: CommandSpec, args: string[], options: Options, e: NodeJS.ErrnoException): MusterError {
  // The kind comes from Node's error code; the offending word from a tolerant re-parse of the same argv.
  const tokens = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true }).tokens;
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const bad = tokens.find((t) => t.kind === 'option' && !Object.hasOwn(options, t.name));
    const raw = bad?.kind === 'option' ? bad.rawName : '?';
    const own = Object.keys(spec.options ?? {}).map((o) => `--${o}`);
    const owners = bad?.kind === 'option' ? ownersOf(bad.name) : [];
    const elsewhere = owners.length > 0 ? ` (${raw} is an option of ${owners.join(', ')})` : '';
    const dash = spec.positionals ? " (an argument that starts with '-' goes after --)" : '';
    return commandUsageError(name, `unknown option ${raw}${elsewhere}; ${own.length > 0 ? `its options are ${own.join(', ')}` : 'it takes no options'}${dash}`);
  }
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const bad = tokens.find((t) => t.kind === 'positional');
    return commandUsageError(name, `unexpected argument ${JSON.stringify(bad?.kind === 'positional' ? bad.value : '')}; it takes none`);
  }
  // ERR_PARSE_ARGS_INVALID_OPTION_VALUE: Node's first line names the option and what is wrong with it.
  return commandUsageError(name, (e.message.split('\n')[0] ?? 'bad option value').replace(/\.$/, ''));
}

function parseWith(name: string, spec: CommandSpec, args: string[]): { positional: string[]; flags: ParsedArgs['flags']; help: boolean } {
  const options = optionsOf(spec);
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: spec.positionals === true });
    const { help, ...flags } = values as Record<string, string | boolean | undefined>;
    return { positional: positionals, flags, help: help === true };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      // `muster ls --harnes x --help` asks for the help: it wins over the error (not after `--`).
      const end = args.indexOf('--');
      if ((end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h')) return { positional: [], flags: {}, help: true };
      throw explain(name, spec, args, options, e as NodeJS.ErrnoException);
    }
    throw e;
  }
}

/** Parses `args` (what follows the command name) for `spec`, descending into a subcommand. */
export function parseCommandArgs(name: string, spec: CommandSpec, args: string[]): ParsedArgs {
  if (!spec.subcommands) return { name, spec, ...parseWith(name, spec, args) };
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === '-h') return { name, spec, positional: [], flags: {}, help: true };
  if (sub === undefined) throw commandUsageError(name, `needs a subcommand: one of ${Object.keys(spec.subcommands).join(', ')}`);
  if (!Object.hasOwn(spec.subcommands, sub)) {
    throw commandUsageError(name, `unknown subcommand ${JSON.stringify(sub)}; one of ${Object.keys(spec.subcommands).join(', ')}`);
  }
  const subSpec = spec.subcommands[sub] as CommandSpec;
  const parsed = parseWith(`${name} ${sub}`, subSpec, rest);
  return { name: `${name} ${sub}`, spec: subSpec, ...parsed, positional: [sub, ...parsed.positional] };
}

/** `muster <command> --help`: its synopsis, summary and options (subcommands for `goal`). */
export function commandHelp(spec: CommandSpec): string {
  const lines = [`Usage: muster ${spec.synopsis}`, '', `${spec.summary[0]?.toUpperCase()}${spec.summary.slice(1)}.`];
  if (spec.subcommands) {
    lines.push('', 'Subcommands (each has its own --help):');
    for (const s of Object.values(spec.subcommands)) lines.push(`  muster ${s.synopsis}`, `      ${s.summary}`);
  }
  const opts: [string, string][] = Object.entries(spec.options ?? {}).map(([name, o]) => [`--${name}${o.value ? ` ${o.value}` : ''}`, o.describe]);
  opts.push(['-h, --help', 'this help']);
  const width = Math.max(...opts.map(([o]) => o.length)) + 2;
  lines.push('', 'Options:', ...opts.map(([o, d]) => `  ${o.padEnd(width)}${d}`));
  return lines.join('\n');
}
