import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyOpenCodeArgv, serverUrlOf } from './argv.ts';
import { assignOpenCodeSessions, type OpenCodeProcess, type SessionRef } from './liveness.ts';

const A = 'ses_aaaaaaaaaaaaAAAAAAAAAAAAAA';
const B = 'ses_bbbbbbbbbbbbBBBBBBBBBBBBBB';
const C = 'ses_ccccccccccccCCCCCCCCCCCCCC';

function p(pid: number, startedAtMs: number, cwd: string | null, ...args: string[]): OpenCodeProcess {
  const cls = classifyOpenCodeArgv(['opencode', ...args]);
  return { pid, startedAtMs, cwd, cls, serverUrl: serverUrlOf(cls) };
}
const s = (id: string, directory: string, createdMs: number, updatedMs = createdMs): SessionRef => ({ id, directory, createdMs, updatedMs });

function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function plain(m: ReturnType<typeof assignOpenCodeSessions>): Record<string, unknown> {
  return Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)));
}

const cases: { name: string; procs: OpenCodeProcess[]; sessions: SessionRef[]; busy?: [string, string[]][]; want: Record<string, { pid: number; exact: boolean; pids?: number[] }> }[] = [
  { name: '-s names the session exactly', procs: [p(10, 0, '/p', '-s', A)], sessions: [s(A, '/p', 0), s(B, '/p', 5)], want: { [A]: { pid: 10, exact: true } } },
  { name: 'an id the store does not know claims nothing', procs: [p(10, 0, '/p', '-s', C)], sessions: [s(A, '/q', 0)], want: {} },
  { name: 'two processes resuming one session: both pids, the first as main', procs: [p(11, 5, '/p', 'run', '-s', A, 'x'), p(10, 0, '/p', '-s', A)], sessions: [s(A, '/p', 0)], want: { [A]: { pid: 10, exact: true, pids: [10, 11] } } },
  { name: '--fork creates a new session: the named one is not claimed; the new one is guessed', procs: [p(10, 10_000, '/p', '--fork', '-s', A)], sessions: [s(A, '/p', 0), s(B, '/p', 10_150)], want: { [B]: { pid: 10, exact: false } } },
  { name: 'a server reporting a session busy claims it exactly', procs: [p(20, 0, '/srv', 'serve', '--port', '4096')], sessions: [s(A, '/x', 0), s(B, '/y', 0)], busy: [['http://127.0.0.1:4096', [B]]], want: { [B]: { pid: 20, exact: true } } },
  { name: 'attach -s with its server: the client is main, the server a second pid', procs: [p(20, 0, '/srv', 'serve', '--port', '4096'), p(21, 10, '/p', 'attach', 'http://127.0.0.1:4096', '-s', A)], sessions: [s(A, '/p', 0)], busy: [['http://127.0.0.1:4096', [A]]], want: { [A]: { pid: 21, exact: true, pids: [20, 21] } } },
  { name: 'run without -s guesses the session created after it started in its cwd', procs: [p(10, 10_000, '/p', 'run', 'hi')], sessions: [s(A, '/p', 5_000), s(B, '/p', 10_200)], want: { [B]: { pid: 10, exact: false } } },
  { name: 'two TUIs in one directory split sessions by start time', procs: [p(10, 0, '/p'), p(11, 10_000, '/p')], sessions: [s(A, '/p', 1_000), s(B, '/p', 11_000)], want: { [A]: { pid: 10, exact: false }, [B]: { pid: 11, exact: false } } },
  { name: '-c continues the most recently updated session of its cwd', procs: [p(10, 5000, '/p', '-c')], sessions: [s(A, '/p', 0, 4000), s(B, '/p', 0, 3000), s(C, '/q', 0, 4500)], want: { [A]: { pid: 10, exact: false } } },
  { name: 'a TUI with no session yet claims nothing; other directories never', procs: [p(10, 5000, '/p')], sessions: [s(A, '/p', 1000), s(B, '/q', 6000)], want: {} },
  { name: 'a headless server claims no idle session by guess', procs: [p(20, 0, '/p', 'serve', '--port', '4096')], sessions: [s(A, '/p', 10)], busy: [['http://127.0.0.1:4096', []]], want: {} },
  { name: 'a guess never takes a session another process names', procs: [p(10, 0, '/p', '-s', A), p(11, 0, '/p')], sessions: [s(A, '/p', 100), s(B, '/p', 50)], want: { [A]: { pid: 10, exact: true }, [B]: { pid: 11, exact: false } } },
];

test('assignment table', () => {
  for (const c of cases) {
    const got = assignOpenCodeSessions(c.procs, c.sessions, new Map((c.busy ?? []).map(([u, ids]) => [u, new Set(ids)])));
    const want = Object.fromEntries(Object.entries(c.want).map(([id, w]) => [id, { pid: w.pid, exact: w.exact, pids: w.pids ?? [w.pid] }]));
    const trimmed = Object.fromEntries([...got].map(([id, v]) => [id, { pid: v.pid, exact: v.exact, pids: v.pids }]));
    assert.deepEqual(trimmed, want, c.name);
  }
});

test('order independence: shuffled inputs give the same answer', () => {
  for (const c of cases) {
    const busy = new Map((c.busy ?? []).map(([u, ids]) => [u, new Set(ids)]));
    const base = plain(assignOpenCodeSessions(c.procs, c.sessions, busy));
    for (let seed = 1; seed <= 5; seed++) {
      assert.deepEqual(plain(assignOpenCodeSessions(shuffled(c.procs, seed), shuffled(c.sessions, seed * 7), busy)), base, c.name);
    }
  }
});
