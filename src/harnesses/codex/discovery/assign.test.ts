/**
 * Table-driven test of Codex live assignment (which process a held thread is live in), including
 * order independence.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assignCodexThreads } from './assign.ts';
import type { AssignProcess, AssignThread } from './assign.ts';
import { createRng } from '../../seeded-rng.test-support.ts';

const NATIVE = '/home/dev/tools/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex';
const SHIM = '/home/dev/tools/node_modules/.bin/codex';
const DAEMON_BIN = '/home/dev/.codex/packages/app-server-daemon/releases/0.171.0-x86_64-unknown-linux-musl/bin/codex';

const T = (n: number): string => `01a22b42-0000-7000-8000-${String(n).padStart(12, '0')}`;
const DAEMON = 100;
const daemon: AssignProcess = { pid: DAEMON, ppid: 1, argv: [DAEMON_BIN, 'app-server', '--listen', 'unix://', '--analytics-default-enabled', '--managed-daemon'], exe: DAEMON_BIN, cwd: '/', startedAtMs: 0 };
const updater: AssignProcess = { pid: 101, ppid: 1, argv: [DAEMON_BIN, 'app-server', 'daemon', 'pid-update-loop'], exe: DAEMON_BIN, cwd: '/p', startedAtMs: 0 };

function proc(pid: number, args: string[], o: Partial<AssignProcess> = {}): AssignProcess {
  return { pid, ppid: 1, argv: [NATIVE, ...args], exe: NATIVE, cwd: '/p', startedAtMs: 1000, ...o };
}
function shim(pid: number, args: string[], o: Partial<AssignProcess> = {}): AssignProcess {
  return { pid, ppid: 1, argv: ['node', SHIM, ...args], exe: '/usr/bin/node', cwd: '/p', startedAtMs: 1000, ...o };
}
function thread(n: number, o: Partial<AssignThread> = {}): AssignThread {
  return { id: T(n), holderPids: [DAEMON], cwd: '/p', hasRollout: true, lastActivityMs: 2000, loadedAtMs: 1500, name: null, ...o };
}

interface Case {
  name: string;
  threads: AssignThread[];
  procs: AssignProcess[];
  /** threadId (by number) → [kind, holderPid, tuiPids] */
  want: Record<number, [string, number, number[]]>;
}

const cases: Case[] = [
  {
    name: 'codex exec holds its own lock: exact',
    threads: [thread(1, { holderPids: [200] })],
    procs: [daemon, proc(200, ['exec', 'say hi'])],
    want: { 1: ['holder', 200, []] },
  },
  {
    name: 'embedded TUI (--no-daemon) holds its lock and never claims daemon threads',
    threads: [thread(1, { holderPids: [300] }), thread(2, { loadedAtMs: 2000 })],
    procs: [daemon, proc(300, ['--no-daemon'])],
    want: { 1: ['holder', 300, []], 2: ['lingering', DAEMON, []] },
  },
  {
    name: 'exact argv claim: codex resume <id>',
    threads: [thread(1, { loadedAtMs: 10 }), thread(2, { loadedAtMs: 2000, lastActivityMs: 9000 })],
    procs: [daemon, proc(400, ['resume', T(1)])],
    want: { 1: ['argv', DAEMON, [400]], 2: ['lingering', DAEMON, []] },
  },
  {
    name: 'a TUI that names an unloaded thread never guesses another',
    threads: [thread(2, { loadedAtMs: 2000 })],
    procs: [daemon, proc(400, ['resume', T(9)])],
    want: { 2: ['lingering', DAEMON, []] },
  },
  {
    name: 'resume by thread name is an exact claim',
    threads: [thread(1, { loadedAtMs: 10, name: 'Greet the fake user' }), thread(2, { loadedAtMs: 2000 })],
    procs: [daemon, proc(400, ['resume', 'Greet the fake user'])],
    want: { 1: ['argv', DAEMON, [400]], 2: ['lingering', DAEMON, []] },
  },
  {
    name: 'cwd claim prefers a thread with a rollout over the reviewer thread',
    threads: [thread(1, { loadedAtMs: 1500, lastActivityMs: 3000 }), thread(2, { loadedAtMs: 1501, hasRollout: false, lastActivityMs: 0 })],
    procs: [daemon, proc(500, [])],
    want: { 1: ['cwd', DAEMON, [500]], 2: ['lingering', DAEMON, []] },
  },
  {
    name: 'cwd claim without rollouts takes the earliest new thread (reviewer loads right after)',
    threads: [thread(2, { loadedAtMs: 1601, hasRollout: false }), thread(1, { loadedAtMs: 1600, hasRollout: false })],
    procs: [daemon, proc(500, ['-a', 'on-request', '-s', 'workspace-write'])],
    want: { 1: ['cwd', DAEMON, [500]], 2: ['lingering', DAEMON, []] },
  },
  {
    name: 'cwd claim among rollouts: newest activity, then newest load, then larger id',
    threads: [
      thread(1, { loadedAtMs: 1500, lastActivityMs: 5000 }),
      thread(2, { loadedAtMs: 1700, lastActivityMs: 5000 }),
      thread(3, { loadedAtMs: 1700, lastActivityMs: 5000 }),
      thread(4, { loadedAtMs: 1900, lastActivityMs: 4000 }),
    ],
    procs: [daemon, proc(500, [])],
    want: { 3: ['cwd', DAEMON, [500]], 1: ['lingering', DAEMON, []], 2: ['lingering', DAEMON, []], 4: ['lingering', DAEMON, []] },
  },
  {
    name: 'threads loaded before the TUI started, or in another directory, are not guessed',
    threads: [thread(1, { loadedAtMs: 900 }), thread(2, { loadedAtMs: 2000, cwd: '/q' })],
    procs: [daemon, proc(500, [])],
    want: { 1: ['lingering', DAEMON, []], 2: ['lingering', DAEMON, []] },
  },
  {
    name: 'two TUIs in one directory each get their own thread (newest TUI first)',
    threads: [thread(1, { loadedAtMs: 1100, lastActivityMs: 2000 }), thread(2, { loadedAtMs: 3100, lastActivityMs: 3500 })],
    procs: [daemon, proc(600, [], { startedAtMs: 1000 }), proc(601, [], { startedAtMs: 3000 })],
    want: { 1: ['cwd', DAEMON, [600]], 2: ['cwd', DAEMON, [601]] },
  },
  {
    name: 'npm shim and native binary count once',
    threads: [thread(1, { loadedAtMs: 1500, lastActivityMs: 3000 }), thread(2, { loadedAtMs: 1600, lastActivityMs: 2000 })],
    procs: [daemon, shim(700, []), proc(701, [], { ppid: 700, startedAtMs: 1010 })],
    want: { 1: ['cwd', DAEMON, [700, 701]], 2: ['lingering', DAEMON, []] },
  },
  {
    name: 'shim + native resuming by id: one exact claim listing both pids',
    threads: [thread(1)],
    procs: [daemon, shim(700, ['resume', T(1)]), proc(701, ['resume', T(1)], { ppid: 700 })],
    want: { 1: ['argv', DAEMON, [700, 701]] },
  },
  {
    name: 'helpers and non-interactive subcommands are not TUIs',
    threads: [thread(1, { loadedAtMs: 2000 })],
    procs: [
      daemon, updater,
      { pid: 800, ppid: 1, argv: ['/x/codex-linux-sandbox', '--', 'bash'], exe: '/x/codex-linux-sandbox', cwd: '/p', startedAtMs: 1000 },
      proc(801, ['--codex-run-as-apply-patch', 'x']),
      proc(802, ['mcp', 'list']),
      proc(803, ['login']),
      proc(804, ['agents']),
      proc(805, ['exec', 'hi']),
      { pid: 806, ppid: 1, argv: ['vim', 'codex'], exe: '/usr/bin/vim', cwd: '/p', startedAtMs: 1000 },
    ],
    want: { 1: ['lingering', DAEMON, []] },
  },
  {
    name: 'a lock fd inherited by a child shell still names the Codex holder',
    threads: [thread(1, { holderPids: [901, 900] })],
    procs: [daemon, proc(900, ['exec', 'x']), { pid: 901, ppid: 900, argv: ['/bin/bash', '-lc', 'sleep 9'], exe: '/bin/bash', cwd: '/p', startedAtMs: 1200 }],
    want: { 1: ['holder', 900, []] },
  },
  {
    name: 'a thread claimed exactly is not guessed again by an older TUI',
    threads: [thread(1, { loadedAtMs: 3100 })],
    procs: [daemon, proc(600, ['resume', T(1)], { startedAtMs: 3000 }), proc(601, [], { startedAtMs: 1000 })],
    want: { 1: ['argv', DAEMON, [600]] },
  },
];

function run(c: Case): Record<string, [string, number, number[]]> {
  const out: Record<string, [string, number, number[]]> = {};
  for (const [id, a] of assignCodexThreads(c.threads, c.procs)) out[id] = [a.kind, a.holderPid, a.tuiPids];
  return out;
}

/** Deterministic shuffle (seeded) so a failure reproduces. */
function shuffled<T>(xs: T[], seed: number): T[] {
  const rnd = createRng(seed);
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [a[i], a[j]] = [a[j] as T, a[i] as T]; }
  return a;
}

describe('Codex live assignment', () => {
  for (const c of cases) {
    it(c.name, () => {
      const want: Record<string, [string, number, number[]]> = {};
      for (const [n, w] of Object.entries(c.want)) want[T(Number(n))] = w;
      assert.deepEqual(run(c), want);
    });
  }

  it('order independence: shuffled inputs give the same answer', () => {
    for (const c of cases) {
      const base = run(c);
      for (let seed = 1; seed <= 25; seed++) {
        const got = run({ ...c, threads: shuffled(c.threads, seed), procs: shuffled(c.procs, seed * 7919) });
        assert.deepEqual(got, base, `${c.name} (seed ${seed})`);
      }
    }
  });

  it('threads with no holder are not assigned', () => {
    assert.equal(assignCodexThreads([thread(1, { holderPids: [] })], [daemon]).size, 0);
  });
});
