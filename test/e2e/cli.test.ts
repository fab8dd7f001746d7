// The CLI's argument handling over the real built binary (issue 13, points 4 and 21): strict options
// per command, usage errors (exit 2) that name what was wrong, per-command --help, documented flags
// that keep working, and the two commands that take their arguments raw (the wrapper and `hook`).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, runCli, tempHome } from './kit.ts';

const SID = '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('CLI arguments', () => {
  const t = tempHome('muster-e2e-cli-');
  const env = envFor(t.home);
  after(async () => {
    await runCli(['down'], env);
    t.cleanup();
  });

  it('a command named like an Object member (constructor, toString, __proto__) is an unknown command (exit 2)', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const r = await runCli([name], env);
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      assert.equal(r.json.error?.code, 'usage');
      assert.match(r.json.error?.message ?? '', new RegExp(`unknown command or harness '${name}'`));
    }
  });

  it('an unknown option, or an option of another command, is a usage error naming it; nothing runs', async () => {
    const cases: [string[], RegExp][] = [
      [['ls', '--harnes', 'x'], /muster ls: unknown option --harnes/],
      [['show', SID, '--print'], /muster show: unknown option --print \(--print is an option of muster resume\)/],
      [['goal', 'pause', SID, '--budget', '5'], /muster goal pause: unknown option --budget/],
      [['status', '--json'], /muster status: unknown option --json/],
      [['up', '--port'], /muster up: .*--port/],
      [['url', 'extra'], /muster url: unexpected argument "extra"/],
    ];
    for (const [args, pattern] of cases) {
      const r = await runCli(args, env);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.equal(r.json.error?.code, 'usage');
      assert.match(r.json.error?.message ?? '', pattern);
    }
    assert.equal(existsSync(join(t.home, 'muster.db.lock')), false, 'no daemon was started');
  });

  it('`muster <command> --help` prints that command\'s usage, not the general one', async () => {
    for (const [args, first] of [[['goal', '--help'], 'Usage: muster goal'], [['goal', 'set', '-h'], 'Usage: muster goal set'], [['ls', '--help'], 'Usage: muster ls'], [['hook', '--help'], 'Usage: muster hook']] as const) {
      const r = await runCli([...args], env);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stderr.startsWith(first), `${args.join(' ')}:\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, /see and steer every coding-agent session/);
    }
    const general = await runCli(['--help'], env);
    assert.match(general.stderr, /muster <command> --help/);
  });

  it('`muster hook` tolerates any arguments: exit 0, nothing printed', async () => {
    const r = await runCli(['hook', 'claude', 'Stop', '--whatever', '-x', 'junk'], env, { input: '{}' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
  });

  it('the documented flags work against a real daemon', async () => {
    const up = await runCli(['up', '--port', '0'], env);
    assert.equal(up.code, 0, up.stderr);
    for (const args of [
      ['ls', '--live', '--harness', 'claude', '--status', 'idle', '--cwd', '/', '--json'],
      ['pages', '--pending', '--kind', 'question', '--session', SID, '--limit', '5'],
      ['pages', '--status', 'answered'],
      ['goal', 'ls', '--status', 'active'],
      ['resume', SID, '--print'],
    ]) {
      const r = await runCli(args, env);
      assert.notEqual(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      if (args[0] !== 'resume') assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    }
    const down = await runCli(['down', '--timeout', '10'], env);
    assert.equal(down.json.stopped, true, down.stderr);
  });

  it('the wrapper passes every argument but --name to the harness, untouched', async () => {
    const bin = join(t.home, 'bin');
    mkdirSync(bin, { recursive: true });
    const record = join(t.home, 'pi-argv.json');
    writeFileSync(join(bin, 'pi'), `#!/usr/bin/env node\nimport('node:fs').then((fs) => fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2))));\n`);
    chmodSync(join(bin, 'pi'), 0o755);
    const passed = ['--weird', '-x', '--help', 'foo', '--model=m', '--', 'bar', '--name', 'literal'];
    const r = await runCli(['pi', '--name', 'mine', ...passed], { ...env, PATH: `${bin}:${env.PATH}` });
    assert.equal(r.code, 0, r.stderr);
    const argv = JSON.parse(readFileSync(record, 'utf8')) as string[];
    assert.equal(argv[0], '-e', 'the extension comes first');
    assert.deepEqual(argv.slice(2), passed);
  });
});
