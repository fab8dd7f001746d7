/**
 * Goals benchmarks.
 * 1. Driver overhead per decision, auditor time excluded: onTurnFinished over the real SQLite store
 *    (WAL, synchronous=FULL) with an instant auditor. Target: <= 20 ms.
 * 2. Turns per minute of `muster goal run claude` against the instant fake model (needs the pinned
 *    claude CLI in .cache/harness-clis and a built dist/; skipped with the reason otherwise).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteStore } from '../src/store/index.ts';
import { createGoals } from '../src/goals/index.ts';

const SID = '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';

async function driverOverhead(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-bench-goals-'));
  try {
    const store = openSqliteStore({ path: path.join(dir, 'muster.db') });
    const goals = createGoals({
      repo: store.goals,
      settings: async () => {
        const s = await store.settings.all(); // read fresh, as the daemon does
        return { auditEnabled: s.auditEnabled === true, auditModel: String(s.auditModel), auditTimeoutMs: 1000 };
      },
      auditorFor: () => ({ spec: 'instant', audit: async () => ({ ok: true, verdict: { allDone: false, remaining: ['more'], needsUser: false }, tokens: 1 }) }),
      publish: () => {},
    });
    const N = 2000;
    await goals.set({ sessionId: SID, harness: 'claude', objective: 'benchmark', maxTurns: N + 10 });
    for (let i = 0; i < 50; i++) await goals.onTurnFinished({ sessionId: SID, harness: 'claude', lastAssistantText: 'report', tokens: 10 });
    const times: number[] = [];
    for (let i = 0; i < N; i++) {
      const t = process.hrtime.bigint();
      await goals.onTurnFinished({ sessionId: SID, harness: 'claude', lastAssistantText: 'report', tokens: 10 });
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3);
    console.log(`driver decision (SQLite store, instant auditor): median ${p(0.5)} ms, p95 ${p(0.95)} ms, p99 ${p(0.99)} ms over ${N} decisions; target <= 20 ms`);
    store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function claudeTurnsPerMinute(): Promise<void> {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const bin = path.join(repo, 'bin', 'muster.js');
  const kit = await import('../test/harness/kit/index.ts');
  const claudeDir = path.join(kit.harnessCacheDir(), `claude@${kit.PINNED.claude.version}`, 'node_modules', '.bin');
  if (!fs.existsSync(path.join(claudeDir, 'claude')) || !fs.existsSync(path.join(repo, 'dist', 'cli.js'))) {
    console.log('goal run claude: skipped (needs the pinned claude CLI: npm run test:harness once, and npm run build)');
    return;
  }
  const { startFakeModel } = await import('../test/fakes/fake-model/index.ts');
  const model = await startFakeModel();
  const auditor = await startFakeModel({ defaultText: JSON.stringify({ allDone: false, remaining: ['more'], needsUser: false }) });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-bench-goalrun-'));
  try {
    const h = kit.harnessEnv('claude', { root, modelUrl: model.url, binDir: claudeDir });
    const env = { ...h.env, MUSTER_HOME: path.join(root, 'muster'), MUSTER_PORT: '0', MUSTER_AUDITOR_BASE_URL: `${auditor.url}/v1` };
    const turns = 10;
    const r = await kit.runCli(process.execPath, [bin, 'goal', 'run', 'claude', '--cwd', h.cwd, '--auditor', 'openai/fake-model', '--max-turns', String(turns), 'benchmark objective'], { cwd: h.cwd, env, timeoutMs: 300_000 });
    const perTurn = [...r.stderr.matchAll(/turn \d+: \d+ tokens, (\d+) ms/g)].map((m) => Number(m[1]));
    console.log(`goal run claude: ${perTurn.length} turns in ${(r.durationMs / 1000).toFixed(1)} s → ${((perTurn.length / r.durationMs) * 60_000).toFixed(1)} turns/min (exit ${r.code}; median turn ${perTurn.sort((a, b) => a - b)[perTurn.length >> 1]} ms incl. audit)`);
    await kit.runCli(process.execPath, [bin, 'down'], { cwd: h.cwd, env, timeoutMs: 20_000 });
  } finally {
    await model.close();
    await auditor.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

await driverOverhead();
await claudeTurnsPerMinute();
