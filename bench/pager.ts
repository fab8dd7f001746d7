/**
 * Pager benchmark: `node --import tsx bench/pager.ts` (needs `npm run build`; drives the built daemon).
 * 1. ask_operator sent → page.opened seen by an SSE client of /api/events (target p99 <= 50 ms).
 * 2. POST /api/pages/:id/answer sent → the waiting ask_operator call returns (target p99 <= 50 ms).
 * Sequential rounds on loopback after a warm-up, one MCP session, one SSE client, against a baseline
 * (GET /api/health round trips) measured in the same run. Bounded to ~60 s.
 */
import { tempHome } from '../test/e2e/kit.ts';
import { callTool, connectMcp, openSse, startPagerDaemon } from '../test/e2e/pager-kit.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 200);
const WARMUP = 20;
const deadline = Date.now() + 60_000;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
}
const fmt = (xs: number[]) => `n=${xs.length} p50=${pct(xs, 50).toFixed(1)} ms p95=${pct(xs, 95).toFixed(1)} ms p99=${pct(xs, 99).toFixed(1)} ms max=${Math.max(...xs).toFixed(1)} ms`;

const t = tempHome('muster-bench-pager-');
const d = await startPagerDaemon(t.home, { askWaitSeconds: 30 });
try {
  const client = await connectMcp(d);
  const sse = await openSse(d);
  const visible: number[] = [];
  const returned: number[] = [];
  for (let i = 0; i < WARMUP + ROUNDS && Date.now() < deadline; i++) {
    const question = `bench ${i}`;
    const t0 = performance.now();
    const call = callTool(client, 'ask_operator', { question }).then((r) => ({ r, at: performance.now() }));
    const opened = await sse.next('page.opened', (p) => p.question === question);
    const t1 = performance.now();
    const res = await fetch(`${d.base}/api/pages/${opened.data.id as string}/answer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'ok' }),
    });
    await res.arrayBuffer();
    const { r, at } = await call;
    if (r.status !== 'answered') throw new Error(`round ${i}: ${JSON.stringify(r)}`);
    if (i >= WARMUP) {
      visible.push(opened.at - t0);
      returned.push(at - t1);
    }
  }
  // Baseline in the same run: a bare authenticated GET round trip, the least any path can cost here.
  const base: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    await (await fetch(`${d.base}/api/health`)).arrayBuffer();
    base.push(performance.now() - t0);
  }
  sse.close();
  await client.close();
  console.log(`baseline GET /api/health round trip: ${fmt(base)}`);
  console.log(`ask → page visible on SSE:          ${fmt(visible)}   (target p99 <= 50 ms: ${pct(visible, 99) <= 50 ? 'met' : 'MISSED'})`);
  console.log(`answer via API → tool call returns: ${fmt(returned)}   (target p99 <= 50 ms: ${pct(returned, 99) <= 50 ? 'met' : 'MISSED'})`);
  console.log(`ratios p99 / baseline p99: visible ${(pct(visible, 99) / pct(base, 99)).toFixed(1)}x, returned ${(pct(returned, 99) / pct(base, 99)).toFixed(1)}x`);
} finally {
  await d.stop();
  t.cleanup();
}
