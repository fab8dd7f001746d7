/**
 * Pane benchmarks (issue 6): `node --import tsx bench/panes.ts`.
 * 1. Rebuild of the pid → pane map with 50 tmux panes and ~500 processes (each pane a shell with 9
 *    sleeping children), through the real tmux adapter and the real /proc snapshot. Target ≤ 30 ms.
 *    The pure map build over the same table is reported apart.
 * 2. Focus round trip: POST /api/focus on an in-process daemon until tmux has switched the attached
 *    client (script(1) gives the client a pty). Target ≤ 50 ms.
 * Everything runs on a private tmux socket that is killed at the end; bounded to ~60 s.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProc } from '../src/sources/proc/index.ts';
import { buildPaneMap, createPaneTracker, createTmuxPanes, readProcTree } from '../src/panes/index.ts';

import { createDaemon } from '../src/daemon/index.ts';
import { registryJson, userLine, writeTranscript } from '../src/sources/claude/claude-fixtures.ts';

const PANES = 50;
const RUNS = 30;
const root = mkdtempSync(join(tmpdir(), 'muster-bench-panes-'));
const socket = join(root, 'tmux.sock');
let client: ChildProcess | undefined;
const tmux = (args: string[]): Promise<string> =>
  new Promise((resolve, reject) => execFile('tmux', ['-S', socket, ...args], { timeout: 5000, encoding: 'utf8' }, (e, out, err) => (e ? reject(new Error(err || e.message)) : resolve(out))));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)] ?? NaN, p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] ?? NaN };
};
const fmt = (n: number) => n.toFixed(2);
const guard = setTimeout(() => {
  console.error('bench: over 120 s, giving up');
  process.exit(1);
}, 120_000);
guard.unref();

async function cleanup(): Promise<void> {
  client?.kill('SIGKILL');
  await tmux(['kill-server']).catch(() => {});
  rmSync(root, { recursive: true, force: true });
}

async function mapRebuild(): Promise<void> {
  await tmux(['-f', '/dev/null', 'new-session', '-d', '-s', 'bench', '-x', '200', '-y', '50', 'sleep', '300']);
  for (let i = 1; i < PANES; i++) {
    await tmux(['new-window', '-d', '-t', '=bench:', '--', 'sh', '-c', 'for i in 1 2 3 4 5 6 7 8 9; do sleep 300 & done; wait']);
  }
  await sleep(500);
  console.error(`bench: ${PANES} panes up`);
  const proc = createProc();
  const managers = [createTmuxPanes({ socket })];
  const tracker = createPaneTracker({ managers, proc, table: () => readProcTree() });
  const map = await tracker.rebuild();
  const table = readProcTree();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await tracker.rebuild();
    times.push(performance.now() - t0);
  }
  const panes = await managers[0]!.listPanes();
  const pure: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    buildPaneMap(panes, table);
    pure.push(performance.now() - t0);
  }
  const r = stats(times);
  const p = stats(pure);
  console.log(`map rebuild: ${panes.length} panes, ${table.byPid.size} processes in the table, ${map.size} mapped`);
  console.log(`  full rebuild (tmux list-panes + /proc stat tree + map): median ${fmt(r.median)} ms, p95 ${fmt(r.p95)} ms (target ≤ 30) ${r.median <= 30 ? 'OK' : 'OVER'}`);
  console.log(`  map build alone: median ${fmt(p.median)} ms, p95 ${fmt(p.p95)} ms`);
}

async function focusRoundTrip(): Promise<void> {
  const home = join(root, 'home');
  const claude = join(home, '.claude');
  mkdirSync(join(claude, 'sessions'), { recursive: true });
  const id = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
  const [pane, pid] = (await tmux(['new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', '-t', '=bench:', '--', 'bash', '-c', 'exec -a claude sleep 300'])).trim().split(' ');
  await sleep(200);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  writeFileSync(join(claude, 'sessions', `${pid}.json`), registryJson({ pid: Number(pid), sessionId: id, procStart: ticks, cwd: root }));
  writeTranscript(claude, id, [userLine('bench', { sessionId: id, cwd: root })], root);
  client = spawn('script', ['-qfc', `tmux -S ${socket} attach -t =bench:0`, '/dev/null'], { stdio: 'ignore', env: { ...process.env, TERM: 'xterm' } });
  for (let i = 0; i < 100 && !(await tmux(['list-clients', '-F', '#{client_name}'])).trim(); i++) await sleep(50);
  console.error('bench: client attached; starting the daemon');
  const daemon = await createDaemon({ env: { ...process.env, MUSTER_HOME: join(root, 'muster'), HOME: home, MUSTER_TMUX_SOCKET: socket }, port: 0, log: () => {} });
  try {
    await daemon.hub.ready();
    const call = (sessionId: string) =>
      fetch(`${daemon.urls.api}/focus`, { method: 'POST', headers: { authorization: `Bearer ${daemon.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ sessionId }) });
    const first = await call(id);
    if (first.status !== 200) throw new Error(`focus answered ${first.status}: ${await first.text()}`);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await tmux(['switch-client', '-t', '=bench:0']);
      const t0 = performance.now();
      const res = await call(id);
      await res.arrayBuffer();
      times.push(performance.now() - t0);
      if ((await tmux(['list-clients', '-F', '#{pane_id}'])).trim() !== pane) throw new Error('the client was not switched');
    }
    const r = stats(times);
    console.log(`focus round trip (POST /api/focus → tmux switched): median ${fmt(r.median)} ms, p95 ${fmt(r.p95)} ms (target ≤ 50) ${r.median <= 50 ? 'OK' : 'OVER'}`);
  } finally {
    await daemon.close();
  }
}

try {
  await mapRebuild();
  await focusRoundTrip();
} finally {
  await cleanup();
}
