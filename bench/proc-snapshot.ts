/**
 * Process-table benchmark: `node --import tsx bench/proc-snapshot.ts`.
 * 1. ~300 sleeping children, then snapshot() median/p95 over 50 runs, against a baseline measured
 *    in the same run (readdir /proc + read every <pid>/stat: the least any snapshot must do).
 * 2. Liveness pass: isAlive + startTicks for 500 child pids, and probeLock on 200 lock files
 *    (half held by one process, as a Codex daemon holding many thread locks would).
 * Every child is ours, bounded in lifetime (sleep 90) and killed by pid at the end.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProc } from '../src/discovery/proc/index.ts';

const SNAPSHOT_CHILDREN = 300;
const LIVENESS_CHILDREN = 500;
const LOCK_FILES = 200;
const RUNS = 50;
const deadline = Date.now() + 55_000;

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'muster-bench-proc-'));
const cleanup = (): void => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

function spawnSleepers(total: number): void {
  while (children.length < total && Date.now() < deadline) children.push(spawn('sleep', ['90'], { stdio: 'ignore' }));
}

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

function stats(samples: number[]): { median: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}

function baseline(): void {
  for (const name of readdirSync('/proc')) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    try {
      readFileSync(`/proc/${name}/stat`);
    } catch {}
  }
}

function hasCommand(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** One python3 process flock-ing every path (then sleeping); resolves when /proc/locks shows them all. */
async function holdLocks(paths: string[], proc: ReturnType<typeof createProc>): Promise<ChildProcess | null> {
  if (!hasCommand('python3')) return null;
  const script = 'import fcntl,sys,time\nfs=[open(p,"a") for p in sys.argv[1:]]\nfor f in fs: fcntl.flock(f, fcntl.LOCK_EX)\ntime.sleep(90)';
  const child = spawn('python3', ['-c', script, ...paths], { stdio: 'ignore' });
  children.push(child);
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    if (proc.locks().filter((l) => l.pid === child.pid).length >= paths.length) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

const fmt = (ms: number): string => `${ms.toFixed(2)} ms`;

async function main(): Promise<void> {
  if (process.platform !== 'linux') {
    console.log(`proc-snapshot bench: skipped, needs Linux /proc (platform ${process.platform})`);
    return;
  }
  const proc = createProc();
  spawnSleepers(SNAPSHOT_CHILDREN);
  await new Promise((r) => setTimeout(r, 500)); // let them exec

  proc.snapshot();
  baseline();
  const snap: number[] = [];
  const base: number[] = [];
  let size = 0;
  for (let i = 0; i < RUNS; i++) {
    snap.push(time(() => { size = proc.snapshot().byPid.size; }));
    base.push(time(baseline));
  }
  const s = stats(snap);
  const b = stats(base);
  console.log(`snapshot() of ${size} processes (${children.length} children), ${RUNS} runs: median ${fmt(s.median)}, p95 ${fmt(s.p95)}`);
  console.log(`baseline readdir+stat:                     median ${fmt(b.median)}, p95 ${fmt(b.p95)}`);
  console.log(`ratio snapshot/baseline (median): ${(s.median / b.median).toFixed(2)}x`);

  spawnSleepers(LIVENESS_CHILDREN);
  await new Promise((r) => setTimeout(r, 300));
  const pids = children.slice(0, LIVENESS_CHILDREN).map((c) => c.pid).filter((p): p is number => typeof p === 'number');
  let alive = 0;
  const liveness = time(() => {
    for (const pid of pids) if (proc.isAlive(pid) && proc.startTicks(pid) !== null) alive++;
  });
  console.log(`liveness (isAlive + startTicks) of ${pids.length} pids: ${fmt(liveness)} (${alive} alive)`);

  const paths: string[] = [];
  for (let i = 0; i < LOCK_FILES; i++) {
    const p = join(dir, `thread-${i}.lock`);
    writeFileSync(p, '');
    paths.push(p);
  }
  const holder = await holdLocks(paths.filter((_, i) => i % 2 === 0), proc);
  let held = 0;
  const probe = time(() => {
    for (const p of paths) if (proc.probeLock(p)) held++;
  });
  const note = holder ? `${held} held by pid ${holder.pid}` : `${held} held (no python3: none were locked)`;
  console.log(`probeLock on ${paths.length} lock files: ${fmt(probe)} (${note}; /proc/locks has ${proc.locks().length} lines)`);
  const holdersMs = time(() => void proc.lockHolders(paths[0] as string));
  console.log(`lockHolders of one held file (holder has ${paths.length / 2}+ fds): ${fmt(holdersMs)}`);
}

try {
  await main();
} finally {
  cleanup();
}
