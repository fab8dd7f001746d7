import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ProcInfo } from '../../../discovery/proc/types.ts';
import { argValues, isOmpProcess, isPiProcess } from './harness-process.ts';

const proc = (argv: string[], exe: string | null, comm = argv[0] ?? ''): ProcInfo =>
  ({ pid: 1, ppid: 0, argv, comm, exe, cwd: '/', ttyNr: 0, tpgid: -1, pgrp: 1, startTicks: 1, startedAtMs: 1 });

describe('pi and omp process recognition', () => {
  it('pi: the rewritten title with a JavaScript runtime executable', () => {
    assert.equal(isPiProcess(proc(['pi', '', '', ''], '/usr/bin/node', 'pi')), true);
    assert.equal(isPiProcess(proc(['/usr/bin/node', '/x/node_modules/@mariozechner/pi-coding-agent/dist/cli.js', '-p'], '/opt/node-v20/bin/node', 'node')), true);
    assert.equal(isPiProcess(proc(['pi'], '/usr/local/bin/pi', 'pi')), false, 'a native program named pi is not pi');
    assert.equal(isPiProcess(proc(['pi'], null, 'pi')), false, 'unknown executable: not verified');
    assert.equal(isPiProcess(proc(['bun', '/x/node_modules/.bin/omp'], '/x/bun', 'bun')), false);
  });

  it('omp: its script in the first argv slots, run by bun (or compiled)', () => {
    assert.equal(isOmpProcess(proc(['bun', '/h/node_modules/.bin/omp', '--model', 'fakeoai/fake-model', '--resume', '01a22b3f-9734'], '/h/node_modules/bun/bin/bun')), true);
    assert.equal(isOmpProcess(proc(['bun', '/c/node_modules/.bin/omp', '--mode', 'rpc'], '/c/node_modules/bun/bin/bun.exe')), true, 'npm bun is bun.exe');
    assert.equal(isOmpProcess(proc(['/usr/local/bin/omp'], '/usr/local/bin/omp')), true);
    assert.equal(isOmpProcess(proc(['tmux', 'new', 'omp'], '/usr/bin/tmux')), false);
    assert.equal(isOmpProcess(proc(['vim', 'omp'], '/usr/bin/vim')), false, 'a file named omp opened in an editor');
    assert.equal(isOmpProcess(proc(['pi'], '/usr/bin/node', 'pi')), false);
  });

  it('argValues reads --flag v and --flag=v, never a following flag', () => {
    assert.deepEqual(argValues(['omp', '--resume', 'abcd', '--session=/a/b.jsonl', '-r', '--model'], ['--resume', '-r', '--session']), ['abcd', '/a/b.jsonl']);
  });
});
