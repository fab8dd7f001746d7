// Strict per-command arguments (issue 13, point 21): parseArgs with strict per command spec, usage
// errors that name what was wrong, per-command help, and the README's Commands table kept true.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MusterError } from '../errors/index.ts';
import { commandHelp, parseCommandArgs } from './args.ts';
import { COMMANDS, type CommandSpec } from './command-specs.ts';

const parse = (name: string, args: string[]) => parseCommandArgs(name, COMMANDS.get(name)!, args);
const usage = (name: string, args: string[], pattern: RegExp) =>
  assert.throws(() => parse(name, args), (e: unknown) => e instanceof MusterError && e.code === 'usage' && pattern.test(e.message), `${name} ${args.join(' ')}`);

describe('parseCommandArgs', () => {
  it('accepts each documented option, with its value', () => {
    const r = parse('ls', ['--live', '--harness', 'claude', '--status=idle', '--cwd', '/tmp', '--json']);
    assert.deepEqual(r.flags, { live: true, harness: 'claude', status: 'idle', cwd: '/tmp', json: true });
    assert.deepEqual(parse('resume', ['abc', '--print']).positional, ['abc']);
  });

  it('an unknown option is a usage error naming it, and the options the command has', () => {
    usage('ls', ['--harnes', 'x'], /muster ls: unknown option --harnes; its options are --live, --harness, --status, --cwd, --host, --json; run `muster ls --help`/);
    usage('status', ['-x'], /unknown option -x; it takes no options/);
  });

  it("another command's option is refused, naming whose it is", () => {
    usage('show', ['abc', '--print'], /muster show: unknown option --print \(--print is an option of muster resume\)/);
    usage('goal', ['pause', 'abc', '--budget', '5'], /muster goal pause: unknown option --budget \(--budget is an option of muster new, muster goal set, muster goal run\)/);
  });

  it('a missing value, a value given to a switch and an unexpected argument are usage errors', () => {
    usage('up', ['--port'], /muster up: .*--port.*missing/);
    usage('ls', ['--json=yes'], /muster ls: .*--json.*does not take an argument/);
    usage('status', ['extra'], /muster status: unexpected argument "extra"/);
  });

  it('-h / --help asks for the help, also next to a bad option; after -- it is an argument', () => {
    assert.equal(parse('ls', ['-h']).help, true);
    assert.equal(parse('ls', ['--harnes', 'x', '--help']).help, true);
    assert.deepEqual(parse('answer', ['pag_1', '--', '--help']).positional, ['pag_1', '--help']);
    assert.deepEqual(parse('answer', ['pag_1', '--', '-1']), { name: 'answer', spec: COMMANDS.get('answer'), positional: ['pag_1', '-1'], flags: {}, help: false });
  });

  it('goal: the subcommand picks the options; unknown or missing subcommands are usage errors', () => {
    const r = parse('goal', ['set', 'abc', 'ship it', '--budget', '1000', '--max-turns', '3']);
    assert.equal(r.name, 'goal set');
    assert.deepEqual(r.positional, ['set', 'abc', 'ship it']);
    assert.deepEqual(r.flags, { budget: '1000', 'max-turns': '3' });
    assert.equal(parse('goal', ['--help']).help, true);
    assert.equal(parse('goal', ['run', '--help']).name, 'goal run');
    usage('goal', [], /muster goal: needs a subcommand: one of set, pause, resume, clear, show, ls, run/);
    usage('goal', ['constructor'], /unknown subcommand "constructor"/);
  });

  it("each command's help names its synopsis and every option", () => {
    for (const [name, spec] of COMMANDS) {
      const help = commandHelp(spec);
      assert.match(help, new RegExp(`^Usage: muster ${name}\\b`), name);
      for (const o of Object.keys(spec.options ?? {})) assert.match(help, new RegExp(`--${o}\\b`), `${name} --${o}`);
      for (const sub of Object.keys(spec.subcommands ?? {})) assert.match(help, new RegExp(`muster ${name} ${sub}\\b`), `${name} ${sub}`);
    }
  });
});

describe('the README Commands table', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const rows = readme.split('\n').filter((l) => l.startsWith('| `muster '));

  it('names exactly the options each command accepts', () => {
    let checked = 0;
    for (const row of rows) {
      const cell = row.slice(2, row.indexOf('` | ') + 1);
      const words = /^`muster ([a-z]+)(?: ([a-z]+))?/.exec(cell);
      const spec = words?.[1] ? COMMANDS.get(words[1]) : undefined;
      if (!spec || !words) continue; // `muster <harness>`, `muster hook` (raw) and `muster` alone
      const own: CommandSpec = spec.subcommands && words[2] ? (spec.subcommands[words[2]] as CommandSpec) : spec;
      const documented = [...cell.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]).sort();
      assert.deepEqual(documented, Object.keys(own.options ?? {}).sort(), cell);
      checked++;
    }
    assert.ok(checked >= 15, `only ${checked} rows checked`);
  });
});
