/**
 * Goals on live sessions: turn end → continuation prompt received by the harness, through its own
 * extension or plugin (pi, omp: the extension's agent_end; OpenCode: the TUI plugin's session.idle),
 * with the auditor's own time subtracted. Each harness runs `muster <harness>` in tmux against the
 * instant fake model; a second fake server is the auditor, answering "keep going" at once.
 *
 * The fake model answers at once without tool calls, so each turn is one model request: from a turn's
 * request to the next continuation's request is the harness's own end of turn, its report to the
 * daemon, the audit (the instant fake auditor's round trip, a few ms on loopback, stays in the figure)
 * and the delivery back into the harness. Reported: p50 and p95 over the turns. Target: p95 ≤ 300 ms
 * plus the auditor's own time. Needs the pinned CLIs (npm run test:harness once)
 * and a built dist/; skipped with the reason otherwise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TURNS = Number(process.env.BENCH_TURNS ?? 12);
const REPO = fileURLToPath(new URL('..', import.meta.url));

async function main(): Promise<void> {
  const kit = await import('../test/harness/kit/index.ts');
  const { startFakeModel, keywordHandler, lastUserText } = await import('../test/fakes/fake-model/index.ts');
  if (!fs.existsSync(path.join(REPO, 'dist', 'cli.js'))) return console.log('skipped: run npm run build first');
  const model = await startFakeModel();
  model.onRequest(keywordHandler());
  const auditor = await startFakeModel({ defaultText: JSON.stringify({ allDone: false, remaining: ['add the tests'], needsUser: false }) });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-bench-goals-live-'));
  const tmux = await kit.startTmux(path.join(root, 'tmux'));
  try {
    for (const name of ['pi', 'omp', 'opencode'] as const) {
      const bin = path.join(kit.harnessCacheDir(), `${name}@${kit.PINNED[name].version}`, 'node_modules', '.bin', name);
      if (!fs.existsSync(bin)) {
        console.log(`${name}: skipped (needs the pinned CLI: npm run test:harness once)`);
        continue;
      }
      const cli = await kit.ensureHarnessCli(name);
      const h = kit.harnessEnv(name, { root: path.join(root, name), modelUrl: model.url, binDir: cli.binDir });
      const d = await kit.startHarnessDaemon({ homes: [h], root: path.join(root, name), env: { MUSTER_AUDITOR_BASE_URL: `${auditor.url}/v1`, MUSTER_AUDITOR_API_KEY: 'sk' } });
      try {
        const museCli = fs.readFileSync(`/proc/${d.pid}/cmdline`, 'utf8').split('\0').find((a) => a.endsWith('cli.js')) as string;
        const pane = await tmux.newPane([process.execPath, museCli, name, ...h.argvPrefix], { cwd: h.cwd, env: { ...h.env, MUSTER_HOME: String(d.env.MUSTER_HOME) } });
        if (name === 'opencode') await tmux.waitForText(pane.id, /Ask anything/, 90_000);
        await kit.typeUntilSent(tmux, model, pane.id, 'hello there', 5, 8000);
        const s = await d.waitFor((x) => x.harness === name && x.live && x.status === 'idle', 60_000);
        const set = await d.muster(['goal', 'set', s.id, 'benchmark the continuation', '--auditor', 'openai/fake-model', '--max-turns', String(TURNS + 1)]);
        if (set.code !== 0) throw new Error(`goal set: ${set.stderr}`);
        const mark = model.requests.length;
        await kit.typeUntilSent(tmux, model, pane.id, 'start');
        const isContinuation = (r: (typeof model.requests)[number]) => !r.sideCall && lastUserText(r).includes('add the tests');
        const deadline = Date.now() + 180_000;
        while (model.requests.slice(mark).filter(isContinuation).length < TURNS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
        // The fake model answers at once and calls no tools, so a turn is one request: from one turn's request
        // to the next continuation's is the harness's end of turn, the report, the audit and the delivery.
        const turns = model.requests.slice(mark).filter((r) => !r.sideCall);
        const samples: number[] = [];
        for (let i = 1; i < turns.length; i++) if (isContinuation(turns[i]!)) samples.push(turns[i]!.at - turns[i - 1]!.at);
        samples.sort((x, y) => x - y);
        const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]?.toFixed(0) ?? '—';
        console.log(`${name}: model's reply → continuation at the model, ${samples.length} turns: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms (the instant fake auditor included); target p95 ≤ 300 ms + the auditor`);
        const g = (await d.muster(['goal', 'show', s.id])).json['goal'] as { status: string; turns: number; reason: string | null } | undefined;
        console.log(`  (goal ${g?.status} after ${g?.turns} turns${g?.reason ? `: ${g.reason}` : ''})`);
        await d.muster(['goal', 'clear', s.id]);
      } finally {
        await d.close();
      }
    }
    await opencodeBaseline(kit, model, tmux, root, lastUserText);
  } finally {
    await tmux.kill();
    await model.close();
    await auditor.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * OpenCode's own share: a bare TUI plugin that sends the next prompt the moment OpenCode reports the
 * session idle (no Muster, no report, no audit), measured the same way.
 */
async function opencodeBaseline(
  kit: typeof import('../test/harness/kit/index.ts'),
  model: Awaited<ReturnType<typeof import('../test/fakes/fake-model/index.ts').startFakeModel>>,
  tmux: Awaited<ReturnType<typeof import('../test/harness/kit/index.ts').startTmux>>,
  root: string,
  lastUserText: typeof import('../test/fakes/fake-model/index.ts').lastUserText,
): Promise<void> {
  const cli = await kit.ensureHarnessCli('opencode');
  const dir = path.join(root, 'baseline');
  const h = kit.harnessEnv('opencode', { root: dir, modelUrl: model.url, binDir: cli.binDir });
  fs.writeFileSync(path.join(dir, 'bare.js'), `let n = 0;
export default { id: 'bare', tui: async (api) => {
  api.event.on('session.idle', (e) => {
    if (n++ >= ${TURNS}) return;
    void api.client.session.promptAsync({ sessionID: e.properties.sessionID, parts: [{ type: 'text', text: 'add the tests (bare)' }] });
  });
} };
`);
  fs.writeFileSync(path.join(dir, 'tui.json'), JSON.stringify({ plugin: ['./bare.js'] }));
  const pane = await tmux.newPane([cli.bin], { cwd: h.cwd, env: { ...h.env, OPENCODE_TUI_CONFIG: path.join(dir, 'tui.json') } });
  await tmux.waitForText(pane.id, /Ask anything/, 90_000);
  const mark = model.requests.length;
  await kit.typeUntilSent(tmux, model, pane.id, 'start');
  const isNext = (r: (typeof model.requests)[number]) => !r.sideCall && lastUserText(r).includes('add the tests (bare)');
  const deadline = Date.now() + 120_000;
  while (model.requests.slice(mark).filter(isNext).length < TURNS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  const turns = model.requests.slice(mark).filter((r) => !r.sideCall);
  const samples: number[] = [];
  for (let i = 1; i < turns.length; i++) if (isNext(turns[i]!)) samples.push(turns[i]!.at - turns[i - 1]!.at);
  samples.sort((x, y) => x - y);
  const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]?.toFixed(0) ?? '—';
  console.log(`opencode alone (a bare plugin prompting on session.idle, no Muster): ${samples.length} turns: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms — OpenCode's own share of the figure above`);
}

await main();
