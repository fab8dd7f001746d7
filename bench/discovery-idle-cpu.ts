/**
 * Issues 4 and 17 — idle CPU of the daemon with 50 live Claude sessions: 50 real processes posing
 * as `claude` (`exec -a claude sleep 600`), each with a registry file and a transcript. After the list
 * is ready and 2 s of settling, the daemon's utime+stime (/proc/<pid>/stat) over two windows of 60 s, beside
 * two baselines measured over the same window: an idle node process (a 1 s interval timer), and the
 * sweep's floor on this machine — a node process that does nothing but read the 50 processes'
 * /proc/<pid>/statm once a second, as the daemon's quiet sweep did. Target: <= 0.1 % of a core.
 * The figure the target is read on is the kernel's tick count (utime+stime, 10 ms ticks: a sampled
 * figure, a few ticks either way over a window); beside it, the exact CPU time the scheduler accounts
 * to every thread (/proc/<pid>/task/<tid>/schedstat, ns; read every hundredth of a window, and a
 * thread that ends, such as the cold index's worker, keeps what it had at the last read). After the
 * windows one fake is SIGKILLed and the time until the daemon lists it as not live is printed (the
 * sweep is then at its idlest).
 * Three windows: the first still holds the tail of the start (V8's memory reducer collects the start's
 * garbage about 8 s after it), the second the first safety rescan (at 120 s: every source re-listed),
 * the third is the steady state (the next rescan comes at 360 s). Each window also prints the daemon's
 * CPU per tenth of the window (schedstat), which shows where a window's cost lies.
 * BENCH_DORMANT adds that many dormant transcripts (a long history, two messages each, in 40 project
 * folders): the daemon then lists them at its start and at each rescan, which shows what a safety rescan
 * of a heavy user's history costs an idle daemon (the second window).
 * Env: BENCH_LIVE (default 50), BENCH_IDLE_S (default 60), BENCH_DORMANT (default 0). Needs `npm run build` first.
 * Run: node --import tsx bench/discovery-idle-cpu.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { assistantLine, registryJson, userLine, writeTranscript } from '../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { api, benchHome, cpuTicks, sleep, spawnFakeClaude, startDaemon, startTicks, track } from './corpus/daemon-kit.ts';
import { createRng, uuidV4 } from './corpus/text-pool.ts';

const LIVE = Number(process.env.BENCH_LIVE ?? 50);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 60);
const DORMANT = Number(process.env.BENCH_DORMANT ?? 0);
/** USER_HZ on Linux. */
const HZ = 100;
const { home: benchRoot, env, cleanup } = benchHome('muster-bench-idle-');

/**
 * The CPU time the scheduler accounted to the threads of `pid` (/proc/<pid>/task/<tid>/schedstat, whose
 * first field is ns on the CPU), ms, as a running total that never goes back: a thread that ends (the
 * cold index's worker, the search thread) keeps what it had when last read, as the process's own
 * utime+stime keeps an ended thread's ticks. Its time after that last read is lost, so read often.
 */
function threadClock(pid: number): () => number {
  const seen = new Map<string, number>();
  return () => {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        seen.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
      } catch {
        // a thread that ended between the listing and the read keeps its last figure
      }
    }
    let ns = 0;
    for (const v of seen.values()) ns += v;
    return ns / 1e6;
  };
}

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
  for (let i = 0; i < DORMANT; i++) {
    const id = uuidV4(rng);
    const cwd = `/home/dev/history-${i % 40}`;
    writeTranscript(claudeHome, id, [userLine(`old task ${i}`, { sessionId: id, cwd }), assistantLine({ id: `msg_${i}`, requestId: `req_${i}`, sessionId: id, cwd })], cwd);
  }
  const d = await startDaemon(env);
  const r = await api(d, '/api/sessions?live=true');
  const live = (r.body.sessions as unknown[] | undefined)?.length ?? 0;
  const idle = track(spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }));
  const reads = `const fs = require('node:fs'); const b = Buffer.alloc(64); const fds = ${JSON.stringify(fakes.map((f) => f.pid))}.map((p) => fs.openSync('/proc/' + p + '/statm', 'r')); setInterval(() => { for (const fd of fds) fs.readSync(fd, b, 0, 64, 0); }, 1000);`;
  const floor = track(spawn(process.execPath, ['-e', reads], { stdio: 'ignore' }));
  const daemonMs = threadClock(d.pid);
  const idleMs = threadClock(idle.pid!);
  const floorMs = threadClock(floor.pid!);
  daemonMs(); // from here on, a thread that ends keeps its figure
  await sleep(2000);
  const pct = (cpu: number): string => `${((100 * cpu) / IDLE_S).toFixed(3)}% of a core`;
  // The first window starts 2 s after the listing is ready (see the header for what each holds).
  for (const window of ['first', 'second', 'third']) {
    const load0 = loadavg();
    const d0 = cpuTicks(d.pid);
    const i0 = cpuTicks(idle.pid!);
    const f0 = cpuTicks(floor.pid!);
    const ds0 = daemonMs();
    const is0 = idleMs();
    const fs0 = floorMs();
    const tenths: number[] = [];
    for (let i = 0, last = ds0; i < 10; i++) {
      // Read every hundredth of the window: what a thread that ends did after the last read is lost.
      for (let j = 0; j < 10; j++) {
        await sleep(IDLE_S * 10);
        daemonMs();
      }
      const now = daemonMs();
      tenths.push(now - last);
      last = now;
    }
    const exact = (ms: number): string => `exactly ${ms.toFixed(1)} ms, ${((100 * ms) / 1000 / IDLE_S).toFixed(3)}%`;
    const dCpu = (cpuTicks(d.pid) - d0) / HZ;
    const iCpu = (cpuTicks(idle.pid!) - i0) / HZ;
    const fCpu = (cpuTicks(floor.pid!) - f0) / HZ;
    console.log(`${window} ${IDLE_S} s idle${DORMANT ? `, ${DORMANT} dormant transcripts beside the live ones` : ''} (load average ${load0.map((x) => x.toFixed(2)).join(' ')} at its start):`);
    console.log(`  daemon with ${live} live sessions:                ${dCpu.toFixed(2)} s (${pct(dCpu)}; target <= 0.1%) [${exact(daemonMs() - ds0)}]`);
    console.log(`    per ${IDLE_S / 10} s: ${tenths.map((ms) => ms.toFixed(0)).join(' ')} ms`);
    console.log(`  baseline idle node process (1 s timer):          ${iCpu.toFixed(2)} s (${pct(iCpu)}) [${exact(idleMs() - is0)}]`);
    console.log(`  baseline ${LIVE} statm reads a second (sweep floor): ${fCpu.toFixed(2)} s (${pct(fCpu)}) [${exact(floorMs() - fs0)}]`);
  }
  // SIGKILL one session's process: how long until the daemon lists it as not live, from its idlest sweep.
  const killedAt = performance.now();
  fakes[0]!.kill('SIGKILL');
  let after = live;
  while (after === live && performance.now() - killedAt < 10_000) {
    await sleep(20);
    after = ((await api(d, '/api/sessions?live=true')).body.sessions as unknown[] | undefined)?.length ?? 0;
  }
  const deadMs = performance.now() - killedAt;
  console.log(`SIGKILL of one live session after ${3 * IDLE_S} s idle -> not live after ${deadMs.toFixed(0)} ms (bound: 3000 ms)`);
  await d.stop();
  if (after !== live - 1 || deadMs > 3000) { console.log('ERROR: the killed session was not seen as dormant within 3 s'); return 1; }
  if (live !== LIVE) { console.log(`ERROR: expected ${LIVE} live sessions, the daemon saw ${live}`); return 1; }
  return 0;
}

try {
  process.exitCode = await main();
} finally {
  cleanup();
}
