/**
 * Real-harness tier for search (issue 18): a real `claude -p` and `codex exec` run against the fake
 * model, then `muster search` finds a word from each prompt and from each answer, `muster show
 * --messages` reads each conversation, and an MCP client (the official SDK) calls `search_sessions`.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { lastUserText, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, runCli, startHarnessDaemon } from './kit/index.ts';
import type { HarnessCli, HarnessDaemon } from './kit/index.ts';

const SCENARIO_MS = 300_000;

interface Result { session: { harness: string; id: string }; hits: { role: string; snippet: string; position: number }[] }

describe('search over real claude -p and codex exec transcripts', () => {
  let model: FakeModel;
  let claudeCli: HarnessCli;
  let codexCli: HarnessCli;
  let daemon: HarnessDaemon | undefined;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-search-'));

  before(async () => {
    claudeCli = await ensureHarnessCli('claude');
    codexCli = await ensureHarnessCli('codex');
    model = await startFakeModel();
    // Each prompt's word gets an answer with a word of its own, so prompts and answers are told apart.
    model.onRequest((req) => {
      const text = lastUserText(req) ?? '';
      if (text.includes('quetzal')) return { text: 'The claude answer mentions axolotl.' };
      if (text.includes('pangolin')) return { text: 'The codex answer mentions narwhal.' };
      return undefined;
    });
  });

  after(async () => {
    await daemon?.close();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('finds a word of each prompt and of each answer; reads both conversations; search_sessions over MCP', { timeout: SCENARIO_MS }, async () => {
    const claude = harnessEnv('claude', { root, modelUrl: model.url, binDir: claudeCli.binDir });
    const codex = harnessEnv('codex', { root, modelUrl: model.url, binDir: codexCli.binDir });
    const print = await runCli(claudeCli.bin, ['-p', 'please look for the quetzal', '--output-format', 'json'], { cwd: claude.cwd, env: claude.env, timeoutMs: 120_000 });
    assert.equal(print.code, 0, print.stderr);
    const claudeId = (JSON.parse(print.stdout) as { session_id: string }).session_id;
    const exec = await runCli(codexCli.bin, ['exec', '--skip-git-repo-check', '--json', 'tell me about the pangolin'], { cwd: codex.cwd, env: codex.env, timeoutMs: 120_000 });
    assert.equal(exec.code, 0, exec.stderr);
    const thread = (JSON.parse(exec.stdout.split('\n')[0] ?? '{}') as { thread_id?: string }).thread_id ?? '';
    assert.ok(thread, exec.stdout);

    daemon = await startHarnessDaemon({ homes: [claude, codex], root });
    await daemon.waitForList((l) => l.some((s) => s.id === claudeId) && l.some((s) => s.id === thread), 30_000, 'both sessions listed');
    const search = async (q: string): Promise<Result[]> => {
      const r = await daemon!.muster(['search', q, '--json']);
      assert.equal(r.code, 0, r.stderr);
      return r.json.results as Result[];
    };
    for (const [word, harness, id, role] of [['quetzal', 'claude', claudeId, 'user'], ['axolotl', 'claude', claudeId, 'assistant'], ['pangolin', 'codex', thread, 'user'], ['narwhal', 'codex', thread, 'assistant']] as const) {
      const results = await search(word);
      assert.deepEqual(results.map((r) => [r.session.harness, r.session.id]), [[harness, id]], word);
      assert.equal(results[0]?.hits[0]?.role, role, word);
      console.log(`# ${word}: ${harness} ${id.slice(0, 8)} ${role} #${results[0]?.hits[0]?.position} "${results[0]?.hits[0]?.snippet}"`);
    }
    for (const id of [claudeId, thread]) {
      const show = await daemon.muster(['show', id, '--messages', '--json']);
      assert.equal(show.code, 0, show.stderr);
      const roles = (show.json.messages as { role: string }[]).map((m) => m.role);
      assert.ok(roles.includes('user') && roles.includes('assistant'), `${id}: ${roles.join(', ')}`);
    }

    const client = new Client({ name: 'muster-harness-search', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.api.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${daemon.api.token}` } } }));
    try {
      const r = await client.callTool({ name: 'search_sessions', arguments: { query: 'narwhal OR axolotl' } });
      assert.ok(!r.isError, JSON.stringify(r.content));
      const found = (r.structuredContent as { results: Result[] }).results;
      // OR is a word, not an operator: nothing holds all three words.
      assert.deepEqual(found, []);
      const one = await client.callTool({ name: 'search_sessions', arguments: { query: 'axolotl harness:claude' } });
      assert.deepEqual((one.structuredContent as { results: Result[] }).results.map((x) => x.session.id), [claudeId]);
    } finally {
      await client.close();
    }
  });
});
