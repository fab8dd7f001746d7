import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { classifyCodexProcess } from './argv.ts';

const BIN = '/opt/codex/vendor/x86_64-unknown-linux-musl/bin/codex';
const ID = '01a22b42-6e14-7f62-8c74-d16f2d172825';

describe('classifyCodexProcess', () => {
  const table: [string, string[], string | null, string, { id: string | null; name: string | null } | null, boolean][] = [
    ['managed daemon', [BIN, 'app-server', '--listen', 'unix://', '--managed-daemon'], BIN, 'daemon', null, false],
    ['IDE app-server (stdio)', [BIN, 'app-server'], BIN, 'app-server', null, false],
    ['daemon updater', [BIN, 'app-server', 'daemon', 'pid-update-loop'], BIN, 'helper', null, false],
    ['exec', [BIN, 'exec', '--json', 'hi'], BIN, 'exec', null, false],
    ['exec after value flags', [BIN, '-c', 'model="x"', '-m', 'gpt', 'exec', 'hi'], BIN, 'exec', null, false],
    ['exec resume', [BIN, 'exec', 'resume', ID, 'go on'], BIN, 'exec', null, false],
    ['plain TUI', [BIN], BIN, 'tui', { id: null, name: null }, false],
    ['TUI with a prompt', [BIN, 'fix the login bug'], BIN, 'tui', { id: null, name: null }, false],
    ['TUI with plain flags', [BIN, '-a', 'on-request', '-s', 'workspace-write'], BIN, 'tui', { id: null, name: null }, false],
    ['resume by id (upper case normalised)', [BIN, 'resume', ID.toUpperCase()], BIN, 'tui', { id: ID, name: null }, false],
    ['resume by name', [BIN, 'resume', 'Greet the fake user'], BIN, 'tui', { id: null, name: 'Greet the fake user' }, false],
    ['resume --last', [BIN, 'resume', '--last'], BIN, 'tui', { id: null, name: null }, false],
    ['fork makes a new thread', [BIN, 'fork', ID], BIN, 'tui', { id: null, name: null }, false],
    ['npm shim', ['node', '/usr/lib/node_modules/.bin/codex', 'resume', ID], '/usr/bin/node', 'tui', { id: ID, name: null }, true],
    ['npm shim with node flags', ['node', '--no-warnings', '/x/bin/codex.js', 'exec', 'x'], '/usr/bin/node', 'exec', null, true],
    ['sandbox helper', ['/x/codex-linux-sandbox', '--', 'bash'], '/x/codex-linux-sandbox', 'helper', null, false],
    ['run-as helper', [BIN, '--codex-run-as-apply-patch', 'x'], BIN, 'helper', null, false],
    ['login', [BIN, 'login'], BIN, 'subcommand', null, false],
    ['agents command centre', [BIN, 'agents'], BIN, 'subcommand', null, false],
    ['node running something else', ['node', '/srv/app.js'], '/usr/bin/node', 'other', null, false],
    ['an editor opening a file named codex', ['vim', 'codex'], '/usr/bin/vim', 'other', null, false],
  ];
  for (const [name, argv, exe, kind, names, shim] of table) {
    it(name, () => {
      const c = classifyCodexProcess(argv, exe);
      assert.equal(c.kind, kind);
      assert.deepEqual(c.names, names);
      assert.equal(c.shim, shim);
    });
  }
});
