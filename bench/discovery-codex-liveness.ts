/**
 * Issue 4, figure 7 — the Codex source's liveness pass with 500 processes and 200 thread-writer lock
 * files (100 held by two processes posing as `codex exec`, 100 stale). Timed, median/p95 of 20 runs:
 * (a) scanThreadLocks (one /proc/locks read, a stat per file, holders confirmed via fds);
 * (b) (a) + the process snapshot + the assignment of held threads to processes — the pass resolve() runs on every list();
 * (c) the source's whole warm list() (rollouts unchanged). Target: the pass <= 50 ms.
 * Baseline in the same run: readdir /proc + read every <pid>/stat.
 * Run: node --import tsx bench/discovery-codex-liveness.ts   (Linux; needs python3 for flock holders)
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assignCodexThreads, createCodexSource, scanThreadLocks } from '../src/harnesses/codex/discovery/index.ts';
import type { AssignProcess, AssignThread } from '../src/harnesses/codex/discovery/index.ts';
import { createMemoryTranscriptIndex } from '../src/discovery/contract.ts';
import { createProc } from '../src/discovery/proc/index.ts';
import { benchHome, median, percentile, sleep, track } from './corpus/daemon-kit.ts';
import { createRng, uuidV7 } from './corpus/text-pool.ts';

const PROCS = 500;
const LOCKS = 200;
const RUNS = 20;
const { home: benchRoot, cleanup } = benchHome('muster-bench-codex-live-');

// Holds an exclusive flock on every path given after `exec`, then sleeps (bounded).
const HOLDER = 'import fcntl,sys,time\nfs=[open(p,"a") for p in sys.argv[2:]]\nfor f in fs: fcntl.flock(f, fcntl.LOCK_EX)\ntime.sleep(90)\n';

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

function baseline(): void {
  for (const name of readdirSync('/proc')) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    try { readFileSync(`/proc/${name}/stat`); } catch { /* raced exit */ }
  }
}

async function main(): Promise<number> {
  if (process.platform !== 'linux') { console.log('codex liveness bench: needs Linux /proc'); return 0; }
  try { execFileSync('sh', ['-c', 'command -v python3'], { stdio: 'ignore' }); } catch { console.log('codex liveness bench: needs python3 to hold flocks'); return 1; }
  const home = benchRoot;
  const lockDir = join(home, 'thread-writer-locks');
  const day = join(home, 'sessions', '2026', '11', '30');
  mkdirSync(lockDir, { recursive: true });
  mkdirSync(day, { recursive: true });
  const rng = createRng(3);
  const paths: string[] = [];
  for (let i = 0; i < LOCKS; i++) {
    const at = Date.UTC(2026, 10, 30, 6, 0, i);
    const id = uuidV7(at, rng);
    const p = join(lockDir, `${id}.lock`);
    writeFileSync(p, '');
    paths.push(p);
    const ts = new Date(at).toISOString();
    writeFileSync(join(day, `rollout-2026-11-30T06-00-${String(i % 60).padStart(2, '0')}-${id}.jsonl`), [
      { timestamp: ts, ordinal: 0, type: 'session_meta', payload: { id, session_id: id, timestamp: ts, cwd: `/home/dev/p${i % 20}`, originator: 'codex_exec', source: 'exec', cli_version: '0.171.0' } },
      { timestamp: ts, ordinal: 1, type: 'event_msg', payload: { type: 'task_started', turn_id: id, turn_attribution: { turn_trigger: 'exec' } } },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n');
  }
  const held = paths.filter((_, i) => i % 2 === 0);
  for (const part of [held.slice(0, held.length / 2), held.slice(held.length / 2)]) {
    // argv `codex - exec <paths>`: classified as a `codex exec` holder, like a real exec process.
    const c = track(spawn('bash', ['-c', 'exec -a codex python3 - exec "$@"', 'holder', ...part], { stdio: ['pipe', 'ignore', 'ignore'] }));
    c.stdin!.end(HOLDER);
  }
  const proc = createProc();
  while (readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length < PROCS) track(spawn('sleep', ['90'], { stdio: 'ignore' }));
  const until = Date.now() + 15_000;
  while (Date.now() < until && proc.locks().filter((l) => l.kind === 'FLOCK').length < held.length) await sleep(50);
  await sleep(300);

  const onError = (m: string): void => void m;
  const scan = (): ReturnType<typeof scanThreadLocks> => scanThreadLocks(home, proc, onError);
  const pass = (): number => {
    const locks = scan();
    const procs: AssignProcess[] = [...proc.snapshot().byPid.values()].map((p) => ({ pid: p.pid, ppid: p.ppid, argv: p.argv, exe: p.exe, cwd: p.cwd, startedAtMs: p.startedAtMs }));
    const threads: AssignThread[] = locks.held.map((l) => ({ id: l.threadId, holderPids: l.holderPids, cwd: null, hasRollout: true, lastActivityMs: 0, loadedAtMs: l.loadedAtMs }));
    return assignCodexThreads(threads, procs).size;
  };
  const source = createCodexSource({ home, proc, index: createMemoryTranscriptIndex(), controlSocket: join(home, 'no-daemon.sock') });
  await source.list(); // cold read of the rollouts, then only warm lists are timed
  const first = scan();
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  const base: number[] = [];
  let assigned = 0;
  let live = 0;
  for (let i = 0; i < RUNS; i++) {
    a.push(time(() => void scan()));
    b.push(time(() => { assigned = pass(); }));
    const t0 = performance.now();
    live = (await source.list()).filter((s) => s.live).length;
    c.push(performance.now() - t0);
    base.push(time(baseline));
  }
  const f = (xs: number[]): string => `median ${median(xs).toFixed(1)} ms, p95 ${percentile(xs, 0.95).toFixed(1)} ms`;
  const nprocs = proc.snapshot().byPid.size;
  console.log(`${nprocs} processes, ${LOCKS} lock files: ${first.held.length} held, ${first.stale.length} stale`);
  console.log(`(a) scanThreadLocks:                   ${f(a)}`);
  console.log(`(b) locks + snapshot + assignment:     ${f(b)} (${assigned} threads assigned; target <= 50 ms)`);
  console.log(`(c) warm list() of the Codex source:   ${f(c)} (${live} live sessions)`);
  console.log(`baseline readdir /proc + every stat:  ${f(base)}`);
  return first.held.length === held.length ? 0 : 1;
}

try {
  process.exitCode = await main();
} finally {
  cleanup();
}
