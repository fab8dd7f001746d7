/**
 * Issue 17 — what the Claude source's registry scan costs at every listing (each change of any session,
 * each safety rescan), with 50 live sessions: 50 real processes posing as `claude` (`exec -a claude
 * sleep`), each with its `sessions/<pid>.json`, checked against the real /proc. Two ways, alternating
 * rounds in one run: every file read and parsed (no cache: how each listing read them before), and
 * through the source's read cache (an unchanged, settled file is only stat'ed). Prints the median time of
 * a scan each way and their ratio; fails when a scan does not find every session live.
 * Env: BENCH_LIVE (default 50), BENCH_SCANS (scans per round, default 200).
 * Run: node --import tsx bench/claude-registry.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scanRegistry } from '../src/harnesses/claude/discovery/live.ts';
import type { RegistryReadCache } from '../src/harnesses/claude/discovery/live.ts';
import { registryJson } from '../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { createProc } from '../src/discovery/proc/index.ts';
import { benchHome, median, sleep, spawnFakeClaude, startTicks } from './corpus/daemon-kit.ts';
import { createRng, uuidV4 } from './corpus/text-pool.ts';

const LIVE = Number(process.env.BENCH_LIVE ?? 50);
const SCANS = Number(process.env.BENCH_SCANS ?? 200);
const ROUNDS = 5;
const { home, cleanup } = benchHome('muster-bench-registry-');

async function main(): Promise<number> {
  const sessionsDir = join(home, '.claude', 'sessions');
  mkdirSync(sessionsDir, { recursive: true });
  const fakes = Array.from({ length: LIVE }, () => spawnFakeClaude(120));
  await sleep(300); // let them exec so their start ticks are final
  const rng = createRng(5);
  for (const f of fakes) {
    writeFileSync(join(sessionsDir, `${f.pid}.json`), registryJson({ pid: f.pid!, sessionId: uuidV4(rng), procStart: startTicks(f.pid!), status: 'idle', cwd: '/home/dev/live' }));
  }
  await sleep(1100); // the files settle (the cache keeps an entry once its file is a second old)
  const proc = createProc();
  const cache: RegistryReadCache = new Map();
  const times = { read: [] as number[], cached: [] as number[] };
  let ok = true;
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of ['read', 'cached'] as const) {
      const t0 = performance.now();
      for (let i = 0; i < SCANS; i++) {
        const r = await scanRegistry({ sessionsDir, proc, ...(way === 'cached' ? { cache } : {}) });
        if (r.live.length !== LIVE) ok = false;
      }
      // The first round warms both ways up and fills the cache: not counted.
      if (round > 0) times[way].push((performance.now() - t0) / SCANS);
    }
  }
  const read = median(times.read);
  const cached = median(times.cached);
  console.log(`Claude registry scan, ${LIVE} live sessions (real /proc), median of ${ROUNDS - 1} rounds of ${SCANS} scans:`);
  console.log(`  every file read and parsed:   ${read.toFixed(3)} ms per scan`);
  console.log(`  through the read cache:       ${cached.toFixed(3)} ms per scan   (${(read / cached).toFixed(2)}x faster; the process check is the same both ways)`);
  if (!ok) console.log(`ERROR: a scan did not find all ${LIVE} sessions live`);
  return ok ? 0 : 1;
}

try {
  process.exitCode = await main();
} finally {
  cleanup();
}
