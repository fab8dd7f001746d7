/**
 * Issue 4, figure 4 — one line appended to a live transcript → the session.upserted event at an SSE
 * client: p50/p95 over BENCH_APPENDS (default 50) appends, with BENCH_SESSIONS (default 2,000) other
 * sessions in the home (every change re-lists the whole Claude source). Baseline in the same run: the
 * same append seen by an fs.watch in this process (the inotify floor). Target: p95 <= 250 ms.
 * Needs `npm run build` first. Run: node --import tsx bench/discovery-sse-latency.ts
 */
import { appendFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { cwdToSlug } from '../src/harnesses/claude/discovery/index.ts';
import { metaLine, registryJson, userLine, writeTranscript } from '../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { createDeferredSqliteIndex } from './corpus/batched-index.ts';
import { createClaudeSource } from '../src/harnesses/claude/discovery/index.ts';
import { api, benchHome, percentile, sleep, spawnFakeClaude, startDaemon, startTicks, writeManyClaudeTranscripts } from './corpus/daemon-kit.ts';
import { mkdirSync, writeFileSync } from 'node:fs';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 50);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 2000);
const LIVE = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const { home: benchRoot, env, cleanup } = benchHome('muster-bench-sse-');

async function main(): Promise<number> {
  const claudeHome = join(benchRoot, '.claude');
  writeManyClaudeTranscripts(claudeHome, SESSIONS);
  const cwd = '/home/dev/live';
  const file = writeTranscript(claudeHome, LIVE, [userLine('a live session', { sessionId: LIVE, cwd })], cwd);
  const fake = spawnFakeClaude(600);
  await sleep(100);
  mkdirSync(join(claudeHome, 'sessions'), { recursive: true });
  writeFileSync(join(claudeHome, 'sessions', `${fake.pid}.json`), registryJson({ pid: fake.pid!, sessionId: LIVE, procStart: startTicks(fake.pid!), status: 'busy', cwd }));
  // Pre-index in one transaction (the daemon's own cold index of thousands of files is fsync-bound; see discovery-scale.ts).
  const deferred = createDeferredSqliteIndex(join(benchRoot, 'muster.db'));
  await createClaudeSource({ home: claudeHome, index: deferred.index }).list();
  deferred.flush();
  deferred.close();

  const d = await startDaemon(env);
  await api(d, '/api/sessions'); // ready
  const res = await fetch(`${d.base}/api/events`, { headers: { authorization: `Bearer ${d.token}` } });
  const reader = res.body!.getReader();
  let text = '';
  const waiters = new Map<string, (at: number) => void>();
  void (async () => {
    const dec = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      const at = performance.now();
      text += dec.decode(value, { stream: true });
      for (const [marker, resolve] of waiters) if (text.includes(marker)) { waiters.delete(marker); resolve(at); }
      if (text.length > 1 << 20) text = text.slice(-4096);
    }
  })();

  const sse: number[] = [];
  const inotify: number[] = [];
  let misses = 0;
  const dir = join(claudeHome, 'projects', cwdToSlug(cwd));
  for (let i = 0; i < APPENDS; i++) {
    const marker = `bench title ${i} ${Date.now()}`;
    let seenByWatch = NaN;
    const w = watch(dir, () => { if (Number.isNaN(seenByWatch)) seenByWatch = performance.now(); });
    const got = new Promise<number>((resolve) => waiters.set(marker, resolve));
    const timeout = sleep(3000).then(() => NaN);
    const t0 = performance.now();
    appendFileSync(file, `${metaLine('custom-title', { customTitle: marker }, LIVE)}\n`);
    const at = await Promise.race([got, timeout]);
    w.close();
    waiters.delete(marker);
    if (Number.isNaN(at)) misses++;
    else sse.push(at - t0);
    if (!Number.isNaN(seenByWatch)) inotify.push(seenByWatch - t0);
    await sleep(100 + Math.random() * 100); // appends spaced like a working agent's, not a burst
  }
  await reader.cancel().catch(() => undefined);
  await d.stop();
  const f = (xs: number[], q: number): string => `${percentile(xs, q).toFixed(1)} ms`;
  console.log(`append → session.upserted on SSE (${SESSIONS + 1} sessions, ${APPENDS} appends): p50 ${f(sse, 0.5)}, p95 ${f(sse, 0.95)}, max ${f(sse, 1)} (target p95 <= 250 ms)${misses ? `; ${misses} not seen within 3 s` : ''}`);
  console.log(`baseline append → fs.watch event here:  p50 ${f(inotify, 0.5)}, p95 ${f(inotify, 0.95)} (${inotify.length} seen)`);
  return misses > 0 ? 1 : 0;
}

try {
  process.exitCode = await main();
} finally {
  cleanup();
}
