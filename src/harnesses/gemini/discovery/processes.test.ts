import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { argvSession, geminiWorkers, isGeminiProcess } from './processes.ts';

const ID = '11111111-2222-4333-8444-555555555555';

test('gemini processes: node running a gemini script (as executed, or the package bundle), or a gemini binary', () => {
  const node = '/usr/bin/node';
  assert.ok(isGeminiProcess({ exe: node, argv: ['node', '/x/node_modules/.bin/gemini', '-p', 'hi'] }));
  assert.ok(isGeminiProcess({ exe: node, argv: [node, '--max-old-space-size=12052', '/x/node_modules/.bin/gemini'] }));
  assert.ok(isGeminiProcess({ exe: node, argv: ['node', '/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js'] }));
  assert.ok(isGeminiProcess({ exe: '/opt/gemini', argv: ['/opt/gemini'] }), 'a single-executable build');
  assert.equal(isGeminiProcess({ exe: node, argv: ['node', '/x/app.js', 'gemini'] }), false, 'gemini as an argument is not the script');
  assert.equal(isGeminiProcess({ exe: '/usr/bin/python3', argv: ['python3', '/x/gemini'] }), false);
  assert.equal(isGeminiProcess({ exe: null, argv: ['gemini'] }), false);
});

test('argv names a session by --session-id or --resume <uuid>; `--resume latest` and text after -- name none', () => {
  assert.equal(argvSession(['node', 'gemini', '--session-id', ID.toUpperCase()]), ID);
  assert.equal(argvSession(['node', 'gemini', `--resume=${ID}`]), ID);
  assert.equal(argvSession(['node', 'gemini', '-r', ID]), ID);
  assert.equal(argvSession(['node', 'gemini', '--resume', 'latest']), null);
  assert.equal(argvSession(['node', 'gemini', '--', '--session-id', ID]), null);
});

test('the worker is what Gemini itself would not relaunch: GEMINI_CLI_NO_RELAUNCH or SANDBOX set; without an environment, the one with no gemini child', () => {
  const proc = createFakeProc();
  const script = '/x/node_modules/.bin/gemini';
  proc.add({ pid: 10, ppid: 1, exe: '/usr/bin/node', argv: ['node', script] });
  proc.add({ pid: 11, ppid: 10, exe: '/usr/bin/node', argv: ['node', '--max-old-space-size=8000', script] });
  proc.add({ pid: 20, ppid: 1, exe: '/usr/bin/node', argv: ['node', script, '--session-id', ID] });
  const env: Record<number, Map<string, string>> = { 10: new Map(), 11: new Map([['GEMINI_CLI_NO_RELAUNCH', 'true']]), 20: new Map([['SANDBOX', 'docker']]) };
  assert.deepEqual(geminiWorkers(proc.snapshot(), (pid) => env[pid] ?? null).map((w) => [w.pid, w.argvSession]), [[11, null], [20, ID]]);
  assert.deepEqual(geminiWorkers(proc.snapshot()).map((w) => w.pid), [11, 20]);
});
