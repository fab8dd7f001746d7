/**
 * Issues 3 and 4, figures 3 and 5 — the daemon with 10,000 Claude sessions (BENCH_SESSIONS):
 * - cold index: not through the daemon — its first scan is synchronous and each index put is an
 *   fsync'd transaction, so 10,000 files block it far beyond the kit's 20 s start timeout. The bench
 *   measures the per-put cost in this run, prints the estimate, and pre-builds the daemon's own SQLite
 *   index in-process with the Claude source and one transaction (corpus/batched-index.ts);
 * - warm restart with nothing changed: spawn → GET /api/sessions answered (target <= 1 s), and
 *   spawn → `muster ls --json` answered by a CLI started right after the serve envelope;
 * - `muster ls --json` wall time with 10,000 sessions (target <= 300 ms), beside `node -e 0`
 *   measured interleaved in the same run; daemon RSS after the listing (target <= 250 MB).
 * Needs `npm run build` first. Run: node --import tsx bench/discovery-scale.ts
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runCli } from '../test/e2e/kit.ts';
import { createClaudeSource } from '../src/harnesses/claude/discovery/index.ts';
import { openSqliteStore } from '../src/store/index.ts';
import { createDeferredSqliteIndex } from './corpus/batched-index.ts';
import { api, benchHome, median, rssMb, startDaemon, writeManyClaudeTranscripts } from './corpus/daemon-kit.ts';
import type { RunningDaemon } from './corpus/daemon-kit.ts';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const { home: benchRoot, env, cleanup } = benchHome('muster-bench-scale-');

const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;

async function readyViaHttp(): Promise<{ d: RunningDaemon; total: number; listening: number; sessions: number }> {
  const t0 = performance.now();
  const d = await startDaemon(env);
  const r = await api(d, '/api/sessions');
  return { d, total: performance.now() - t0, listening: d.startMs, sessions: (r.body.sessions as unknown[] | undefined)?.length ?? -1 };
}

function timeCli(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return performance.now() - t0;
}

async function main(): Promise<number> {
  let t0 = performance.now();
  writeManyClaudeTranscripts(join(benchRoot, '.claude'), SESSIONS);
  console.log(`${SESSIONS} Claude transcripts written in ${fmt(performance.now() - t0)}`);

  // Cost of one autocommitted index put in the real store, in this run (fsync-bound).
  const probe = openSqliteStore({ path: join(benchRoot, 'probe.db') });
  t0 = performance.now();
  for (let i = 0; i < 200; i++) probe.transcriptIndex.put({ path: `/probe/${i}`, harness: 'claude', size: 1, mtimeMs: 1, offset: 1, summary: {} });
  const perPut = (performance.now() - t0) / 200;
  probe.close();
  console.log(`store transcriptIndex.put(): ${perPut.toFixed(2)} ms each → a cold daemon index of ${SESSIONS} files spends ~${((perPut * SESSIONS) / 1000).toFixed(1)} s in puts, event loop blocked`);
  const deferred = createDeferredSqliteIndex(join(benchRoot, 'muster.db'));
  t0 = performance.now();
  const listed = (await createClaudeSource({ home: join(benchRoot, '.claude'), index: deferred.index }).list()).length;
  const flushMs = deferred.flush();
  deferred.close();
  console.log(`cold index in-process, one transaction: ${fmt(performance.now() - t0)} (of which the write ${fmt(flushMs)}), ${listed} sessions`);

  const cold = await readyViaHttp();
  console.log(`first daemon start on that index → /api/sessions answered: ${fmt(cold.total)} (serve envelope after ${fmt(cold.listening)}), ${cold.sessions} sessions`);
  if (cold.sessions !== SESSIONS) { console.log(`ERROR: expected ${SESSIONS} sessions`); return 1; }

  // Figure 5: `muster ls --json` against the running daemon, interleaved with `node -e 0`.
  const bin = join(import.meta.dirname, '..', 'bin', 'muster.js');
  timeCli([bin, 'ls', '--json']);
  const ls: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    base.push(timeCli(['-e', '0']));
    ls.push(timeCli([bin, 'ls', '--json']));
  }
  const httpMs: number[] = [];
  for (let i = 0; i < RUNS; i++) httpMs.push((await api(cold.d, '/api/sessions')).ms);
  console.log(`muster ls --json (${SESSIONS} sessions): median ${fmt(median(ls))} (target <= 300 ms); node -e 0 median ${fmt(median(base))}; ratio ${(median(ls) / median(base)).toFixed(2)}`);
  console.log(`  GET /api/sessions alone (in-process fetch): median ${fmt(median(httpMs))}`);
  console.log(`daemon RSS with ${SESSIONS} sessions: ${rssMb(cold.d.pid).toFixed(0)} MB (target <= 250 MB)`);
  await cold.d.stop();

  // Figure 3: warm restarts, nothing changed on disk.
  const warm: number[] = [];
  const listening: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const w = await readyViaHttp();
    warm.push(w.total);
    listening.push(w.listening);
    if (w.sessions !== SESSIONS) console.log(`ERROR: warm restart listed ${w.sessions} sessions`);
    if (i === RUNS - 1) {
      const dg = await api(w.d, '/api/diagnostics');
      const c = (dg.body.sources as { harness: string; lastListMs: number | null }[]).find((s) => s.harness === 'claude');
      console.log(`  claude source warm list(): ${c?.lastListMs ?? '?'} ms (hub diagnostics)`);
    }
    await w.d.stop();
  }
  console.log(`warm restart → /api/sessions answered: median ${fmt(median(warm))}, max ${fmt(Math.max(...warm))} (target <= 1 s); serve envelope median ${fmt(median(listening))}`);
  t0 = performance.now();
  const d = await startDaemon(env);
  const r = await runCli(['ls', '--json'], env, { timeoutMs: 60_000 });
  const viaCli = performance.now() - t0;
  console.log(`warm restart → muster ls --json answered: ${fmt(viaCli)} (${(r.json.sessions as unknown[] | undefined)?.length ?? 'no'} sessions; includes the CLI's own start)`);
  await d.stop();
  return 0;
}

try {
  process.exitCode = await main();
} finally {
  cleanup();
}
