/**
 * Real-harness tier for search (issue 18), Gemini CLI and OpenCode: a real `gemini -p` (0.61.0) and a
 * real `opencode run` (1.18.33) against the fake model, then `muster search` finds a word from each
 * prompt and from each answer, and `muster show --messages` reads each conversation (`supported: true`)
 * with a hit's position opening its message. `-p` and `run` are headless: no tmux, so no CI markers to strip.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lastUserText, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, runCli, startHarnessDaemon } from './kit/index.ts';
import type { HarnessCli, HarnessDaemon } from './kit/index.ts';

// `opencode run` alone takes 45–115 s on a loaded 2-core machine.
const SCENARIO_MS = 420_000;

interface Result { session: { harness: string; id: string }; hits: { role: string; snippet: string; position: number }[] }
interface Page { supported: boolean; messages: { position: number; role: string; text: string }[]; total: number }

describe('search over real gemini -p and opencode run transcripts', () => {
  let model: FakeModel;
  let geminiCli: HarnessCli;
  let opencodeCli: HarnessCli;
  let daemon: HarnessDaemon | undefined;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-search-go-'));

  before(async () => {
    geminiCli = await ensureHarnessCli('gemini');
    opencodeCli = await ensureHarnessCli('opencode');
    model = await startFakeModel();
    // Each prompt's word gets an answer with a word of its own, so prompts and answers are told apart.
    model.onRequest((req) => {
      const text = lastUserText(req);
      if (text.includes('ocelot')) return { text: 'The gemini answer mentions manatee.' };
      if (text.includes('tapir')) return { text: 'The opencode answer mentions wolverine.' };
      return undefined;
    });
  });

  after(async () => {
    await daemon?.close();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('finds a word of each prompt and of each answer; reads both conversations', { timeout: SCENARIO_MS }, async () => {
    const gemini = harnessEnv('gemini', { root, modelUrl: model.url, binDir: geminiCli.binDir });
    const opencode = harnessEnv('opencode', { root, modelUrl: model.url, binDir: opencodeCli.binDir });
    const print = await runCli(geminiCli.bin, [...gemini.argvPrefix, '-o', 'json', '--prompt=please look for the ocelot'], { cwd: gemini.cwd, env: gemini.env, timeoutMs: 120_000 });
    assert.equal(print.code, 0, print.stderr);
    const geminiId = (JSON.parse(print.stdout) as { session_id: string }).session_id;
    // Words apart: OpenCode keeps the quotes of one quoted argument.
    const run = await runCli(opencodeCli.bin, ['run', 'tell', 'me', 'about', 'the', 'tapir'], { cwd: opencode.cwd, env: opencode.env, timeoutMs: 240_000 });
    assert.equal(run.code, 0, run.stderr);

    daemon = await startHarnessDaemon({ homes: [gemini, opencode], root });
    const list = await daemon.waitForList((l) => l.some((s) => s.id === geminiId) && l.some((s) => s.harness === 'opencode' && s.tokens.output > 0), 30_000, 'both sessions listed');
    const opencodeId = list.find((s) => s.harness === 'opencode')?.id ?? '';
    const search = async (q: string): Promise<Result[]> => {
      const r = await daemon!.muster(['search', q, '--json']);
      assert.equal(r.code, 0, r.stderr);
      return r.json.results as Result[];
    };
    for (const [word, harness, id, role] of [['ocelot', 'gemini', geminiId, 'user'], ['manatee', 'gemini', geminiId, 'assistant'], ['tapir', 'opencode', opencodeId, 'user'], ['wolverine', 'opencode', opencodeId, 'assistant']] as const) {
      const results = await search(word);
      assert.deepEqual(results.map((r) => [r.session.harness, r.session.id]), [[harness, id]], word);
      const hit = results[0]?.hits[0];
      assert.equal(hit?.role, role, word);
      console.log(`# ${word}: ${harness} ${id.slice(0, 12)} ${role} #${hit?.position} "${hit?.snippet}"`);
      const show = await daemon.muster(['show', id, '--messages', '--from', String(hit?.position), '--limit', '1', '--json']);
      assert.equal(show.code, 0, show.stderr);
      const page = show.json as unknown as Page;
      assert.equal(page.supported, true, `${harness} reads its conversation`);
      assert.deepEqual(page.messages.map((m) => [m.position, m.role]), [[hit?.position, role]], word);
      assert.match(page.messages[0]?.text ?? '', new RegExp(word), 'the hit opens its message');
    }
    for (const id of [geminiId, opencodeId]) {
      const show = await daemon.muster(['show', id, '--messages', '--json']);
      assert.equal(show.code, 0, show.stderr);
      const roles = (show.json.messages as { role: string }[]).map((m) => m.role);
      assert.ok(roles.includes('user') && roles.includes('assistant'), `${id}: ${roles.join(', ')}`);
      assert.ok(!(show.json.messages as { text: string }[]).some((m) => m.text.includes('<session_context>')), 'Gemini\'s session context is no message');
    }
  });
});
