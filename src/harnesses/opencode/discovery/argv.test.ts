import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyOpenCodeArgv, isOpenCodeProcess, serverUrlOf } from './argv.ts';

const ID = 'ses_dd4ba51b2ffe7Q4PC1LSi4CCM2';

test('classifies TUI, run, serve, attach and other subcommands', () => {
  const cases: [string[], Partial<ReturnType<typeof classifyOpenCodeArgv>>][] = [
    [['opencode'], { kind: 'tui', sessionId: null, port: null }],
    [['/x/bin/opencode', '-s', ID, '--port', '4097'], { kind: 'tui', sessionId: ID, port: 4097 }],
    [['opencode', '--session=' + ID, '--port=0'], { kind: 'tui', sessionId: ID, port: null }],
    [['opencode', '/home/dev/my project', '-c'], { kind: 'tui', continue: true }],
    [['opencode', 'run', '-s', ID, 'say', 'hi'], { kind: 'run', sessionId: ID }],
    [['opencode', 'run', '--fork', '-s', ID, 'x'], { kind: 'run', fork: true, sessionId: ID }],
    [['opencode', 'run', '--attach', 'http://127.0.0.1:4096', 'x'], { kind: 'run', attachUrl: 'http://127.0.0.1:4096' }],
    [['opencode', 'serve', '--port', '4096', '--hostname', '0.0.0.0'], { kind: 'serve', port: 4096, hostname: '0.0.0.0' }],
    [['opencode', 'attach', 'http://localhost:4096', '-s', ID], { kind: 'attach', sessionId: ID, attachUrl: 'http://localhost:4096' }],
    [['opencode', 'db', 'select 1'], { kind: 'other' }],
    [['opencode', 'debug', 'paths'], { kind: 'other' }],
    // A session id in the wrong format is never taken (it could reach a command line later).
    [['opencode', '-s', 'ses_$(touch /tmp/x)'], { kind: 'tui', sessionId: null }],
    [['opencode', '-s'], { kind: 'tui', sessionId: null }],
    // `--model` takes a value, so `run` after it is still the subcommand.
    [['opencode', '-m', 'fake/fake-model', 'run', 'x'], { kind: 'run' }],
  ];
  for (const [argv, want] of cases) {
    const got = classifyOpenCodeArgv(argv);
    for (const [k, v] of Object.entries(want)) assert.deepEqual(got[k as keyof typeof got], v, `${argv.join(' ')}: ${k}`);
  }
});

test('recognises the native binary by exe, argv[0] or comm, not the node launcher', () => {
  assert.equal(isOpenCodeProcess({ exe: '/n/node_modules/opencode-linux-x64/bin/opencode', argv: ['opencode'], comm: 'opencode' }), true);
  assert.equal(isOpenCodeProcess({ exe: '/n/opencode-ai/bin/opencode.exe (deleted)', argv: ['x'], comm: 'x' }), true);
  assert.equal(isOpenCodeProcess({ exe: null, argv: ['/usr/local/bin/opencode', 'run'], comm: 'x' }), true);
  assert.equal(isOpenCodeProcess({ exe: '/usr/bin/node', argv: ['node', '/n/opencode-ai/bin/opencode'], comm: 'node' }), false);
  assert.equal(isOpenCodeProcess({ exe: '/usr/bin/vim', argv: ['vim', 'opencode'], comm: 'vim' }), false);
});

test('server URLs are loopback only and need a known port', () => {
  assert.equal(serverUrlOf(classifyOpenCodeArgv(['opencode', '--port', '4097'])), 'http://127.0.0.1:4097');
  assert.equal(serverUrlOf(classifyOpenCodeArgv(['opencode', 'serve', '--port', '4096', '--hostname', '0.0.0.0'])), 'http://127.0.0.1:4096');
  assert.equal(serverUrlOf(classifyOpenCodeArgv(['opencode'])), null);
  assert.equal(serverUrlOf(classifyOpenCodeArgv(['opencode', 'run', '--port', '4000', 'x'])), null);
  assert.equal(serverUrlOf(classifyOpenCodeArgv(['opencode', 'attach', 'http://localhost:4096/'])), 'http://localhost:4096');
  assert.equal(serverUrlOf(classifyOpenCodeArgv(['opencode', 'attach', 'http://example.com:4096'])), null);
  assert.equal(serverUrlOf(classifyOpenCodeArgv(['opencode', 'serve', '--port', '4096', '--hostname', '10.0.0.5'])), null);
});
