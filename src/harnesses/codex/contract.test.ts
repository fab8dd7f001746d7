/**
 * The adapter contract (and its source checks), run against the Codex source: a temp CODEX_HOME with one dormant exec
 * rollout and one live exec thread whose holder is a real child process (listed in the fake process
 * table with a `codex exec` argv and holding the thread's lock).
 */
import { spawn } from 'node:child_process';
import { runAdapterContract } from '../contract.test-support.ts';
import { codex } from './index.ts';
import { createFakeProc } from '../../../test/fakes/fake-proc.ts';
import { createCodexSource } from './discovery/source.ts';
import { NATIVE, makeCodexHome, touchLock, withRealInodes } from './discovery/source-helpers.test-support.ts';
import { execRollout, rec, writeRollout } from './discovery/rollout-fixtures.test-support.ts';

const DORMANT = '01a22b39-94a8-7390-a4d1-3b90055e3b40';
const LIVE = '01a22b3b-ccb3-7501-8aef-a297accbc975';

runAdapterContract(codex, async () => {
  const { home, cleanup } = makeCodexHome('muster-codex-contract-');
  writeRollout(home, DORMANT, execRollout(DORMANT));
  writeRollout(home, LIVE, [rec.meta(LIVE), rec.taskStarted(), rec.userItem('SLOW exec turn')]);
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start the live child');
  const fake = createFakeProc({
    processes: [{ pid, argv: [NATIVE, 'exec', 'SLOW exec turn'], exe: NATIVE, cwd: '/home/dev/project' }],
    locks: [{ path: touchLock(home, LIVE), pids: [pid] }],
  });
  const source = createCodexSource({ home, proc: withRealInodes(fake, home), withDaemon: () => Promise.reject(new Error('no daemon')) });
  return {
    source,
    dormantId: DORMANT,
    liveId: LIVE,
    async cleanup() {
      child.kill('SIGKILL');
      cleanup();
    },
  };
});
