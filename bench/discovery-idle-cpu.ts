/**
 * Issue 4, figure 6 — idle CPU of the daemon with 50 live Claude sessions: 50 real processes posing
 * as `claude` (`exec -a claude sleep 600`), each with a registry file and a transcript. After the list
 * is ready and 2 s of settling, the daemon's utime+stime (/proc/<pid>/stat) over 20 s of idling, beside
 * an idle node process (a 1 s interval timer) measured over the same window. Target: ~0.
 * Env: BENCH_LIVE (default 50), BENCH_IDLE_S (default 20). Needs `npm run build` first.
 * Run: node --import tsx bench/discovery-idle-cpu.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registryJson, userLine, writeTranscript } from '../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { api, benchHome, cpuTicks, sleep, spawnFakeClaude, startDaemon, startTicks, track } from './corpus/daemon-kit.ts';
import { createRng, uuidV4 } from './corpus/text-pool.ts';

const LIVE = Number(process.env.BENCH_LIVE ?? 50);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 20);
/** USER_HZ on Linux. */
const HZ = 100;
const { home: benchRoot, env, cleanup } = benchHome('muster-bench-idle-');

async function main(): Promise<number> {
  const claudeHome = join(benchRoot, '.claude');
  mkdirSync(join(claudeHome, 'sessions'), { recursive: true });
  const rng = createRng(9);
  const fakes = Array.from({ length: LIVE }, () => spawnFakeClaude(600));
  await sleep(300); // let them exec so their start ticks are final
  for (const [i, f] of fakes.entries()) {
    const id = uuidV4(rng);
    const cwd = `/home/dev/live-${i % 10}`;
    writeTranscript(claudeHome, id, [userLine(`live task ${i}`, { sessionId: id, cwd })], cwd);
    writeFileSync(join(claudeHome, 'sessions', `${f.pid}.json`), registryJson({ pid: f.pid!, sessionId: id, procStart: startTicks(f.pid!), status: i % 3 === 0 ? 'busy' : 'idle', cwd }));
  }
  const d = await startDaemon(env);
  const r = await api(d, '/api/sessions?live=true');
  const live = (r.body.sessions as unknown[] | undefined)?.length ?? 0;
  const idle = track(spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }));
  await sleep(2000);
  const d0 = cpuTicks(d.pid);
  const i0 = cpuTicks(idle.pid!);
  await sleep(IDLE_S * 1000);
  const dCpu = (cpuTicks(d.pid) - d0) / HZ;
  const iCpu = (cpuTicks(idle.pid!) - i0) / HZ;
  await d.stop();
  console.log(`daemon idle CPU with ${live} live sessions over ${IDLE_S} s: ${dCpu.toFixed(2)} s (${((100 * dCpu) / IDLE_S).toFixed(2)}% of a core; target ~0)`);
  console.log(`baseline idle node process, same window:   ${iCpu.toFixed(2)} s`);
  if (live !== LIVE) { console.log(`ERROR: expected ${LIVE} live sessions, the daemon saw ${live}`); return 1; }
  return 0;
}

try {
  process.exitCode = await main();
} finally {
  cleanup();
}
