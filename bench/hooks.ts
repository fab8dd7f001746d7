/**
 * Hook benchmarks (issue 8):
 * - hook event → session.status.changed on an SSE client, p95 (target <= 100 ms), posting the event
 *   over HTTP as `muster hook` does;
 * - `muster hook` process wall time against a running daemon, as a ratio to `node -e 0` in the same
 *   run (target <= 2.0), and with the daemon stopped.
 * Run: node --import tsx bench/hooks.ts   (after `npm run build`)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registryJson, userLine, writeTranscript } from '../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const BIN = fileURLToPath(new URL('../bin/muster.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const SID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

function wall(argv: string[], env: NodeJS.ProcessEnv, input = ''): number {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, argv, { env, input, stdio: ['pipe', 'ignore', 'ignore'] });
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const home = mkdtempSync(join(tmpdir(), 'muster-bench-hooks-'));
const env: NodeJS.ProcessEnv = { ...process.env, MUSTER_HOME: home, HOME: home, MUSTER_PORT: '0' };
delete env.CLAUDE_CONFIG_DIR;
const fake = spawn('bash', ['-c', 'exec -a claude sleep 600'], { stdio: 'ignore' });
try {
  await sleep(100);
  const stat = readFileSync(`/proc/${fake.pid}/stat`, 'utf8');
  const procStart = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  mkdirSync(join(home, '.claude', 'sessions'), { recursive: true });
  writeFileSync(join(home, '.claude', 'sessions', `${fake.pid}.json`), registryJson({ pid: fake.pid!, sessionId: SID, procStart, status: 'idle', cwd: '/tmp/b' }));
  writeTranscript(join(home, '.claude'), SID, [userLine('hi', { sessionId: SID, cwd: '/tmp/b' })], '/tmp/b');
  const up = spawnSync(process.execPath, [BIN, 'up'], { env, encoding: 'utf8' });
  const { boardUrl } = JSON.parse(up.stdout) as { boardUrl: string };
  const u = new URL(boardUrl);
  const token = u.searchParams.get('token') ?? '';
  const api = `${u.protocol}//${u.host}/api`;

  // SSE client: resolve the pending waiter when the status it waits for arrives.
  let waiter: { status: string; done: () => void } | null = null;
  let buf = '';
  const sse = request(`${api}/events`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
    res.on('data', (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (waiter && frame.includes('session.status.changed') && frame.includes(`"status":"${waiter.status}"`)) waiter.done();
      }
    });
  });
  sse.end();
  await sleep(500);
  const latencies: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const [event, status] = i % 2 === 0 ? ['UserPromptSubmit', 'working'] : ['Stop', 'idle'];
    const t0 = performance.now();
    const seen = new Promise<void>((r) => (waiter = { status: status as string, done: r }));
    await fetch(`${api}/hooks/claude/${event}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ payload: { session_id: SID }, pid: fake.pid }) });
    await Promise.race([seen, sleep(2000)]);
    latencies.push(performance.now() - t0);
    waiter = null;
  }
  console.log(`hook event → SSE status change: p50 ${pct(latencies, 0.5).toFixed(1)} ms, p95 ${pct(latencies, 0.95).toFixed(1)} ms (target <= 100) over ${RUNS}`);

  const node: number[] = [];
  const hook: number[] = [];
  const payload = JSON.stringify({ session_id: SID });
  for (let i = 0; i < Math.min(RUNS, 15); i++) {
    node.push(wall(['-e', '0'], env));
    hook.push(wall([BIN, 'hook', 'claude', 'Stop'], env, payload));
  }
  const ratio = pct(hook, 0.5) / pct(node, 0.5);
  console.log(`muster hook wall: median ${pct(hook, 0.5).toFixed(0)} ms vs node -e 0 ${pct(node, 0.5).toFixed(0)} ms → ${ratio.toFixed(2)}× (target <= 2.0)`);
  sse.destroy();
  spawnSync(process.execPath, [BIN, 'down'], { env });
  // Interleaved, so both see the same load (on a busy 2-core box `node -e 0` alone varies 300–1000 ms).
  const downHook: number[] = [];
  const downNode: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 15); i++) {
    downNode.push(wall(['-e', '0'], env));
    downHook.push(wall([BIN, 'hook', 'claude', 'Stop'], env, payload));
  }
  const over = pct(downHook, 0.5) - pct(downNode, 0.5);
  console.log(`muster hook with the daemon stopped: median ${pct(downHook, 0.5).toFixed(0)} ms vs node -e 0 ${pct(downNode, 0.5).toFixed(0)} ms → +${over.toFixed(0)} ms, ${(pct(downHook, 0.5) / pct(downNode, 0.5)).toFixed(2)}×`);
} finally {
  fake.kill('SIGKILL');
  spawnSync(process.execPath, [BIN, 'down'], { env });
  rmSync(home, { recursive: true, force: true });
}
