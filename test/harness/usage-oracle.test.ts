/**
 * Peer oracle for Spend (issue 20): on the same transcripts, `muster usage --by day --json` against
 * ccusage's `claude daily --json` and `codex daily --json` (ccusage 20.0.24, installed by this test
 * into its own temp dir with npm, never a dependency of Muster; run `--offline`, with its bundled
 * prices). Tokens must be equal exactly; cost to the cent where both price tables know the model.
 *
 * Transcripts: real `claude -p` and `codex exec` runs against the fake model (request ids sent as the
 * real API does; cache reads and writes in every reply) with a resume, a fork, a model switch and a
 * tool round; then generated corpora (bench/corpus) in a second home. Every figure is printed, so the
 * README's comparison can quote this run.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { keywordHandler, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, runCli, startHarnessDaemon } from './kit/index.ts';
import type { HarnessCli, HarnessDaemon, HarnessEnv } from './kit/index.ts';
import { generateClaudeCorpus } from '../../bench/corpus/claude-corpus.ts';
import { generateCodexCorpus } from '../../bench/corpus/codex-corpus.ts';

const CCUSAGE = 'ccusage@20.0.24';
const SCENARIO_MS = 400_000;
const run = promisify(execFile);

interface MusterDay { key: string; tokens: { input: number; output: number; cacheRead: number; cacheWrite: number }; costUsd: number | null; pricedUsd: number; unpricedModels: string[] }
interface Compared { date: string; muster: number[]; ccusage: number[]; musterUsd: number | null; musterPriced: number; ccusageUsd: number; models: string[] }

/** ccusage's daily rows as [input, output, cacheRead, cacheWrite] and cost, by date. */
function ccusageDays(json: string, harness: 'claude' | 'codex'): Map<string, { tokens: number[]; usd: number; models: string[] }> {
  const body = JSON.parse(json) as { daily: Record<string, unknown>[] };
  const out = new Map<string, { tokens: number[]; usd: number; models: string[] }>();
  for (const d of body.daily) {
    const n = (k: string): number => Number(d[k] ?? 0);
    const models = harness === 'claude' ? (d.modelsUsed as string[]) : Object.keys(d.models as object);
    out.set(String(d.date), { tokens: [n('inputTokens'), n('outputTokens'), n('cacheReadTokens'), n('cacheCreationTokens')], usd: harness === 'claude' ? n('totalCost') : n('costUSD'), models });
  }
  return out;
}

describe(`muster usage against ${CCUSAGE} (peer oracle)`, () => {
  let model: FakeModel;
  let claudeCli: HarnessCli;
  let codexCli: HarnessCli;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-usage-oracle-'));
  const daemons: HarnessDaemon[] = [];
  let ccusageBin = '';
  let n = 0;

  before(async () => {
    claudeCli = await ensureHarnessCli('claude');
    codexCli = await ensureHarnessCli('codex');
    const prefix = path.join(root, 'ccusage');
    // The package's native binary comes as an optional dependency from the registry (no download at run time).
    await run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', CCUSAGE], { timeout: 240_000 });
    ccusageBin = path.join(prefix, 'node_modules', '.bin', 'ccusage');
    model = await startFakeModel({ requestIds: true });
    const keywords = keywordHandler();
    // Varied usage with cache reads and writes, so every price column is exercised.
    model.onRequest((req) => {
      const i = ++n;
      return { ...(keywords(req) ?? {}), usage: { input: 100 + 7 * i, output: 10 + i, cacheRead: 1000 * i, cacheWrite: 200 + i } };
    });
  });

  after(async () => {
    for (const d of daemons) await d.close();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function ccusage(h: HarnessEnv, harness: 'claude' | 'codex'): Promise<string> {
    const env = { PATH: process.env.PATH, HOME: h.home, TZ: 'UTC', CLAUDE_CONFIG_DIR: h.env.CLAUDE_CONFIG_DIR, CODEX_HOME: h.env.CODEX_HOME, NO_COLOR: '1' };
    const r = await run(ccusageBin, [harness, 'daily', '--json', '--offline', '--timezone', 'UTC'], { env, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    return r.stdout;
  }

  /** Compares one harness's days; returns the rows for printing. Tokens exact; cost to the cent when both price every model. */
  async function compare(d: HarnessDaemon, h: HarnessEnv, harness: 'claude' | 'codex', label: string): Promise<Compared[]> {
    const m = await d.muster(['usage', '--by', 'day', '--harness', harness, '--tz', 'UTC', '--json']);
    assert.equal(m.code, 0, m.stderr);
    const ours = (m.json.rows as MusterDay[]);
    const theirs = ccusageDays(await ccusage(h, harness), harness);
    const rows: Compared[] = [];
    assert.deepEqual(ours.map((r) => r.key), [...theirs.keys()].sort(), `${label}: the same days`);
    for (const r of ours) {
      const c = theirs.get(r.key);
      assert.ok(c, r.key);
      const mine = [r.tokens.input, r.tokens.output, r.tokens.cacheRead, r.tokens.cacheWrite];
      rows.push({ date: r.key, muster: mine, ccusage: c.tokens, musterUsd: r.costUsd, musterPriced: r.pricedUsd, ccusageUsd: c.usd, models: c.models });
      assert.deepEqual(mine, c.tokens, `${label} ${r.key}: tokens [input, output, cacheRead, cacheWrite]`);
      // ccusage prices a model it does not know at $0; Muster says unknown and gives the priced part,
      // which is what ccusage's figure then is.
      assert.ok(Math.abs(r.pricedUsd - c.usd) < 0.005, `${label} ${r.key}: cost ${r.pricedUsd} vs ${c.usd}`);
    }
    for (const r of rows) {
      console.log(`# ${label} ${r.date}: tokens muster ${JSON.stringify(r.muster)} ccusage ${JSON.stringify(r.ccusage)}; cost muster ${r.musterUsd === null ? `unknown (priced part $${r.musterPriced.toFixed(6)})` : `$${r.musterUsd.toFixed(6)}`} ccusage $${r.ccusageUsd.toFixed(6)} [${r.models.join(', ')}]`);
    }
    return rows;
  }

  it('claude -p (resume, fork, model switch, a tool round) and codex exec (resume with another -m): equal to ccusage', { timeout: SCENARIO_MS }, async () => {
    const sRoot = path.join(root, 'real');
    const claude = harnessEnv('claude', { root: sRoot, modelUrl: model.url, binDir: claudeCli.binDir });
    const codex = harnessEnv('codex', { root: sRoot, modelUrl: model.url, binDir: codexCli.binDir });
    const print = async (args: string[]): Promise<string> => {
      const r = await runCli(claudeCli.bin, ['-p', ...args, '--output-format', 'json'], { cwd: claude.cwd, env: claude.env, timeoutMs: 120_000 });
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { session_id: string }).session_id;
    };
    const id = await print(['--model', 'claude-sonnet-4-5-20250929', 'first turn']);
    await print(['--resume', id, '--model', 'claude-sonnet-4-5-20250929', 'second turn TOOL_BASH', '--allowedTools', 'Bash']);
    const fork = await print(['--resume', id, '--fork-session', '--model', 'claude-sonnet-4-5-20250929', 'fork turn']);
    await print(['--resume', id, '--model', 'claude-haiku-4-5-20251001', 'switched model turn']);
    await print(['--model', 'claude-opus-4-5-20251101', 'another session']);
    assert.notEqual(fork, id);

    const exec = async (args: string[]): Promise<string> => {
      const r = await runCli(codexCli.bin, ['exec', '--skip-git-repo-check', ...args], { cwd: codex.cwd, env: codex.env, timeoutMs: 120_000 });
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout.split('\n')[0] ?? '{}') as { thread_id?: string }).thread_id ?? '';
    };
    const thread = await exec(['-m', 'gpt-5-codex', '--json', 'first turn']);
    await exec(['-m', 'gpt-5-mini', '--json', 'resume', thread, 'second turn']);
    await exec(['-m', 'gpt-5', '--json', 'another thread']);

    const d = await startHarnessDaemon({ homes: [claude, codex], root: sRoot });
    daemons.push(d);
    await d.waitForList((l) => l.some((s) => s.id === fork && s.forkedFrom === id) && l.some((s) => s.id === thread && s.model === 'gpt-5-mini'), 30_000, 'every session listed');
    const claudeRows = await compare(d, claude, 'claude', 'real claude');
    const codexRows = await compare(d, codex, 'codex', 'real codex');
    // Every model here is in both tables: the costs are whole.
    for (const r of [...claudeRows, ...codexRows]) assert.notEqual(r.musterUsd, null, `${r.date}: ${r.models.join(', ')}`);
    // The fork's copies are counted once: by session, the parent's and the fork's tokens add up to the days'.
    const bySession = await d.muster(['usage', '--by', 'session', '--harness', 'claude', '--json']);
    const sessions = bySession.json.rows as { key: string; tokens: { input: number } }[];
    const total = sessions.reduce((a, s) => a + s.tokens.input, 0);
    assert.equal(total, claudeRows.reduce((a, r) => a + (r.muster[0] ?? 0), 0));
    assert.ok(sessions.some((s) => s.key === fork) && sessions.some((s) => s.key === id));
  });

  it('a server that sends no request ids: ccusage counts a fork\'s copied messages again, Muster once (the one difference)', { timeout: SCENARIO_MS }, async () => {
    const bare = await startFakeModel();
    try {
      const sRoot = path.join(root, 'no-request-ids');
      const claude = harnessEnv('claude', { root: sRoot, modelUrl: bare.url, binDir: claudeCli.binDir });
      const print = async (args: string[]): Promise<string> => {
        const r = await runCli(claudeCli.bin, ['-p', '--model', 'claude-sonnet-4-5-20250929', ...args, '--output-format', 'json'], { cwd: claude.cwd, env: claude.env, timeoutMs: 120_000 });
        assert.equal(r.code, 0, r.stderr);
        return (JSON.parse(r.stdout) as { session_id: string }).session_id;
      };
      const id = await print(['first turn']);
      await print(['--resume', id, 'second turn']);
      const fork = await print(['--resume', id, '--fork-session', 'fork turn']);
      const d = await startHarnessDaemon({ homes: [claude], root: sRoot });
      daemons.push(d);
      await d.waitForList((l) => l.some((s) => s.id === fork && s.forkedFrom === id), 30_000, 'fork listed');
      const m = await d.muster(['usage', '--by', 'session', '--tz', 'UTC', '--json']);
      const rows = m.json.rows as { key: string; tokens: { input: number; output: number; cacheRead: number; cacheWrite: number } }[];
      const parent = rows.find((r) => r.key === id)?.tokens;
      const total = m.json.totals as { tokens: { input: number; output: number; cacheRead: number; cacheWrite: number } };
      const theirs = [...ccusageDays(await ccusage(claude, 'claude'), 'claude').values()].reduce((a, x) => a.map((v, i) => v + (x.tokens[i] ?? 0)), [0, 0, 0, 0]);
      const ours = [total.tokens.input, total.tokens.output, total.tokens.cacheRead, total.tokens.cacheWrite];
      console.log(`# no request ids: tokens muster ${JSON.stringify(ours)} ccusage ${JSON.stringify(theirs)}; the fork copied the parent's ${JSON.stringify(parent)}`);
      assert.ok(parent);
      assert.deepEqual(theirs, ours.map((v, i) => v + [parent.input, parent.output, parent.cacheRead, parent.cacheWrite][i]!), 'ccusage = Muster + the parent\'s messages the fork copied');
    } finally {
      await bare.close();
    }
  });

  it('generated corpora (bench/corpus: Claude and Codex homes): tokens equal to ccusage', { timeout: SCENARIO_MS }, async () => {
    const sRoot = path.join(root, 'corpus');
    const claude = harnessEnv('claude', { root: sRoot, modelUrl: model.url, binDir: claudeCli.binDir });
    const codex = harnessEnv('codex', { root: sRoot, modelUrl: model.url, binDir: codexCli.binDir });
    generateClaudeCorpus({ home: claude.configDir, files: 60, totalBytes: 6_000_000, seed: 20, models: ['claude-opus-4-1-20250805', 'claude-haiku-4-5-20251001', 'claude-opus-5-5'] });
    generateCodexCorpus({ home: codex.configDir, files: 60, totalBytes: 6_000_000, seed: 21, models: ['gpt-5-codex', 'gpt-5.1-codex-max', 'fake-model'] });
    const d = await startHarnessDaemon({ homes: [claude, codex], root: sRoot });
    daemons.push(d);
    await d.waitForList((l) => l.length >= 120, 60_000, 'the corpora listed');
    await compare(d, claude, 'claude', 'claude corpus');
    await compare(d, codex, 'codex', 'codex corpus');
  });
});
