/**
 * Daemon start-up benchmarks (foundation issue):
 * - `muster status` against a running daemon, wall time as a ratio to `node -e 0` in the same run (target <= 2.0);
 * - `muster up` to ready (target < 500 ms).
 * Run: node --import tsx bench/daemon.ts   (after `npm run build`)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/muster.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const UP_RUNS = Number(process.env.BENCH_UP_RUNS ?? 15);

function time(argv: string[], env: NodeJS.ProcessEnv): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const home = mkdtempSync(join(tmpdir(), 'muster-bench-'));
const env = { ...process.env, MUSTER_HOME: home, HOME: home, MUSTER_PORT: '0' };
try {
  const up: number[] = [];
  for (let i = 0; i < UP_RUNS; i++) {
    up.push(time([BIN, 'up'], env));
    time([BIN, 'down'], env);
  }
  time([BIN, 'up'], env);
  const base: number[] = [];
  const status: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Interleaved so both see the same machine load.
    base.push(time(['-e', '0'], env));
    status.push(time([BIN, 'status'], env));
  }
  time([BIN, 'down'], env);
  const b = median(base);
  const s = median(status);
  console.log(`node -e 0            median ${b.toFixed(1)} ms (${RUNS} runs)`);
  console.log(`muster status        median ${s.toFixed(1)} ms  ratio ${(s / b).toFixed(2)} (target <= 2.0)`);
  console.log(`muster up → ready    median ${median(up).toFixed(1)} ms  ratio ${(median(up) / b).toFixed(2)} to node -e 0 (${up.length} runs; target < 500 ms)`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
