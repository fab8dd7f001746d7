/**
 * The adapter contract (and its source checks), run against a temp Claude home holding a dormant transcript and a
 * live registry entry whose pid is a real child process named `claude`, checked through the real
 * process table.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { runAdapterContract } from '../contract.test-support.ts';
import { claude } from './index.ts';
import { createProc } from '../../discovery/proc/index.ts';
import { createClaudeSource } from './discovery/source.ts';
import { assistantLine, SID, SID2, tempHome, userLine, writeRegistry, writeTranscript } from './discovery/claude-fixtures.test-support.ts';

runAdapterContract(claude, async () => {
  const home = tempHome();
  writeTranscript(home, SID, [userLine('dormant one'), assistantLine({ id: 'm1' })]);
  // A real process whose argv[0] is `claude`, like the CLI started by name.
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { argv0: 'claude', stdio: 'ignore' });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start the stand-in claude process');
  const proc = createProc();
  let ticks: number | null = null;
  for (let i = 0; i < 100 && ticks === null; i++) {
    ticks = proc.startTicks(pid);
    if (ticks === null) await new Promise((r) => setTimeout(r, 10));
  }
  if (ticks === null) throw new Error('stand-in process not visible in /proc');
  // Wait until exec has replaced the forked image, so /proc shows the new argv.
  for (let i = 0; i < 200 && proc.read(pid)?.argv[0] !== 'claude'; i++) await new Promise((r) => setTimeout(r, 10));
  writeRegistry(home, { pid, procStart: ticks, sessionId: SID2, status: 'busy', tmux: 't:@0.%7' });
  return {
    source: createClaudeSource({ home, proc }),
    dormantId: SID,
    liveId: SID2,
    async cleanup() {
      child.kill('SIGKILL');
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
});
