/**
 * The adapter contract (and its source checks), run against a temp COPILOT_HOME holding the real
 * session folders Copilot CLI 1.0.102 wrote (fixtures/) as dormant sessions, and one live session held
 * by a real child process (listed in the fake process table as the native CLI, holding the flock on
 * its `inuse.<pid>.hold`).
 */
import { spawn } from 'node:child_process';
import { runAdapterContract } from '../contract.test-support.ts';
import { copilot } from './index.ts';
import { createFakeProc } from '../../../test/fakes/fake-proc.ts';
import { createCopilotSource } from './discovery/source.ts';
import { copySession, NATIVE, PRINT_ID, tempHome, touchInuse, TUI_ID } from './discovery/copilot-fixtures.test-support.ts';

runAdapterContract(copilot, async () => {
  const { home, cleanup } = tempHome('muster-copilot-contract-');
  copySession(home, PRINT_ID);
  const live = copySession(home, TUI_ID);
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start the live child');
  const { hold } = touchInuse(live, pid);
  const proc = createFakeProc({ processes: [{ pid, argv: [NATIVE], exe: NATIVE, cwd: '/tmp/cop-play/h2/proj' }], locks: [{ path: hold, pids: [pid] }] });
  return {
    source: createCopilotSource({ home, proc }),
    dormantId: PRINT_ID,
    liveId: TUI_ID,
    async cleanup() {
      child.kill('SIGKILL');
      cleanup();
    },
  };
});
