/**
 * TUI benchmarks (issue 10):
 *  1. status change → redrawn frame, 500 sessions: a local server plays the daemon (GET /api/sessions,
 *     /pages, /goals; SSE /api/events); the real TUI (SSE client, state, render, diff painter) draws
 *     into a capturing terminal. Measured from the event's write on the server to the terminal write
 *     that shows it. Budget: p95 <= 100 ms.
 *  2. start → first full frame: the built CLI (`node bin/muster.js`) under `script` (a real pty)
 *     against a running daemon with 500 dormant Claude sessions; from spawn to the frame that shows
 *     the sessions and the status line. Budget: <= 300 ms. Needs `npm run build`.
 */
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createSseClient, createTui, type Terminal, type TuiApi } from '../src/tui/index.ts';
import { session } from '../src/tui/tui-fixtures.test-support.ts';
import { BIN, envFor, startServe, tempHome, waitExit } from '../test/e2e/kit.ts';
import { userLine, writeTranscript } from '../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const report = (label: string, xs: number[], budget: number) =>
  console.log(`  ${label.padEnd(44)} p50 ${pct(xs, 50).toFixed(1).padStart(6)} ms  p95 ${pct(xs, 95).toFixed(1).padStart(6)} ms  max ${Math.max(...xs).toFixed(1).padStart(6)} ms  n=${xs.length}  ${pct(xs, 95) <= budget ? 'within' : 'OVER'} budget ${budget} ms`);

async function statusChangeBench(columns: number, rows: number, n = 200): Promise<number[]> {
  const sessions = Array.from({ length: 500 }, (_, i) => session(i + 1, { status: (['working', 'idle'] as const)[i % 2]!, title: `session ${i + 1}` }));
  const streams = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.url === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: daemon.hello\ndata: {}\n\n');
      streams.add(res);
      return;
    }
    const body = req.url === '/api/sessions' ? { ok: true, sessions } : { ok: true, pages: [], goals: [] };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  let waitFor: { text: string; resolve: (t: number) => void } | null = null;
  const terminal: Terminal = {
    size: () => ({ columns, rows }),
    write: (d) => {
      if (waitFor && d.includes(waitFor.text)) waitFor.resolve(performance.now());
    },
    onKey: () => () => undefined, onResize: () => () => undefined, enter: () => undefined, restore: () => undefined, suspend: () => undefined,
  };
  const api: TuiApi = { call: async (method, path) => (await (await fetch(`${base}${path}`, { method })).json()) as Record<string, unknown> };
  const tui = createTui({ api, terminal, color: true, events: (h) => createSseClient({ target: () => ({ url: `${base}/events`, token: null }), onMessage: h.onMessage, onState: h.onState }) });
  const firstFrame = new Promise<number>((resolve) => (waitFor = { text: 'Sessions 500 ', resolve }));
  await tui.start();
  await firstFrame;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = sessions[(i * 37) % sessions.length]!;
    const reason = `bench-${i}-reason`;
    const shown = new Promise<number>((resolve) => (waitFor = { text: reason, resolve }));
    const data = JSON.stringify({ harness: 'claude', id: s.id, status: 'waiting', waitingFor: reason, live: true, statusSince: new Date().toISOString(), previous: s.status });
    const t0 = performance.now();
    for (const r of streams) r.write(`id: ${i + 1}\nevent: session.status.changed\ndata: ${data}\n\n`);
    out.push((await shown) - t0);
    for (const r of streams) r.write(`id: ${i + 1}\nevent: session.status.changed\ndata: ${JSON.stringify({ id: s.id, status: s.status, waitingFor: null, live: true })}\n\n`);
    await new Promise((r) => setTimeout(r, 5));
  }
  tui.stop();
  for (const r of streams) r.destroy();
  await new Promise((r) => server.close(r));
  return out;
}

async function startBench(n = 10): Promise<number[]> {
  const t = tempHome('muster-bench-tui-');
  const claudeHome = join(t.home, '.claude');
  for (let i = 0; i < 500; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    writeTranscript(claudeHome, id, [userLine(`bench session ${i}`, { sessionId: id, cwd: `/work/p${i % 20}` })], `/work/p${i % 20}`);
  }
  const env = envFor(t.home);
  const d = await startServe(env);
  const out: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const child = spawn('script', ['-qfc', `${process.execPath} ${BIN}`, '/dev/null'], { env: { ...env, TERM: 'xterm-256color' }, stdio: ['pipe', 'pipe', 'ignore'] });
      let seen = '';
      const ms = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no full frame within 10 s: ${JSON.stringify(seen.slice(-300))}`)), 10_000);
        child.stdout.on('data', (b: Buffer) => {
          seen += b.toString();
          if (seen.includes('bench session') && seen.includes('?:keys')) {
            clearTimeout(timer);
            resolve(performance.now() - t0);
          }
        });
      });
      out.push(ms);
      child.stdin.write('q');
      await waitExit(child, 5000).catch(() => child.kill('SIGKILL'));
    }
  } finally {
    d.child.kill('SIGTERM');
    await waitExit(d.child);
    t.cleanup();
  }
  return out;
}

const [l1, l5] = loadavg().map((x) => x.toFixed(2));
console.log(`machine: ${cpus().length} cores, load average ${l1} / ${l5}`);
console.log('status change → redrawn frame (500 sessions, SSE → state → render → terminal write):');
report('80×24', await statusChangeBench(80, 24), 100);
report('200×50', await statusChangeBench(200, 50), 100);
console.log('start → first full frame (built CLI in a pty, running daemon, 500 sessions):');
report('muster', await startBench(), 300);
// The floor on this machine: what a bare node start costs now (the TUI cannot start faster).
const bare: number[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  await waitExit(spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }));
  bare.push(performance.now() - t0);
}
report('baseline: node -e 0', bare, 300);
