/**
 * Issue 17 (OpenCode): a first start over a long OpenCode history reads its store in the cold index's
 * worker threads too. The real daemon (built CLI and worker entry) on an OpenCode store of 200 sessions
 * (chunks of 32; each session with a 200 KB tool output, so a chunk fills a batch of the cold indexer),
 * paced so the figure can be seen between chunks: `muster status` says
 * "indexed n / 200 transcripts" while it reads, and once it is over every session is listed with its
 * tokens and the figure is gone, and then (the second pass reads the conversations) a word of one
 * session's prompt is found by `muster search`.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { envFor, runCli, sleep, startServe, tempHome, waitExit } from './kit.ts';
import { assistantMessage, createFixtureStore, fixtureSessionId, userMessage } from '../../src/harnesses/opencode/discovery/fixture-store.test-support.ts';

const N = 200;

describe('OpenCode cold index progress (issue 17)', () => {
  const t = tempHome('muster-e2e-cold-oc-');
  let env: NodeJS.ProcessEnv;
  let child: ChildProcess | undefined;

  before(() => {
    const st = createFixtureStore(join(t.home, '.local', 'share', 'opencode'));
    st.db.transaction(() => {
      for (let i = 0; i < N; i++) {
        const id = fixtureSessionId(i);
        st.addSession({ id, directory: `/home/dev/p${i % 7}`, title: `task ${i}`, createdMs: 1000 + i, updatedMs: 5000 + i, tokens: { input: 100, output: 10 } });
        st.addMessage(id, `msg_${i}_a`, 2000 + i, userMessage(2000 + i));
        st.addMessage(id, `msg_${i}_b`, 3000 + i, assistantMessage(3000 + i, { completedMs: 4000 + i, finish: 'stop' }));
        st.addPart(id, `msg_${i}_b`, `prt_${i}_b`, 3001 + i, { type: 'tool', tool: 'bash', state: { status: 'completed', output: 'x'.repeat(200_000) } });
        if (i === 137) st.addPart(id, `msg_${i}_a`, `prt_${i}_a`, 2001 + i, { type: 'text', text: 'move the quokka ledger to the new schema' });
      }
    })();
    st.close();
    // Any store is cold (no byte threshold); a chunk every 1 s per worker.
    env = envFor(t.home, { MUSTER_INDEX_COLD_BYTES: '0', MUSTER_INDEX_PACE_MS: '1000' });
  });
  after(async () => {
    if (child) {
      child.kill('SIGTERM');
      await waitExit(child).catch(() => child?.kill('SIGKILL'));
    }
    t.cleanup();
  });

  it('muster status shows "indexed n / 200 transcripts" while it reads; then every session, and no figure', async () => {
    child = (await startServe(env)).child;
    const seen: number[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      const s = await runCli(['status'], env);
      assert.equal(s.code, 0, s.stderr);
      const progress = s.json.progress as string | undefined;
      if (progress === undefined) break;
      const m = /^indexed (\d+) \/ (\d+) transcripts$/.exec(progress);
      assert.ok(m, progress);
      assert.equal(Number(m[2]), N);
      seen.push(Number(m[1]));
      assert.ok(Date.now() < deadline, `the cold index did not end within 60 s (last figures: ${seen.slice(-5).join(', ')})`);
      await sleep(100);
    }
    assert.ok(seen.some((n) => n < N), `a figure below ${N} was seen while reading (${seen.join(', ')})`);
    assert.ok(seen.every((n, i) => i === 0 || n >= seen[i - 1]!), `the figure only grows (${seen.join(', ')})`);
    const ls = await runCli(['ls', '--json', '--harness', 'opencode'], env);
    const body = ls.json as unknown as { sessions: { tokens: { input: number; output: number } }[]; indexing: { active: boolean } };
    assert.equal(body.sessions.length, N);
    assert.equal(body.indexing.active, false);
    assert.equal(body.sessions.reduce((n, s) => n + s.tokens.input + s.tokens.output, 0), N * 110);
    // Then, in a second pass, the worker threads read each session's conversation for the search index.
    let results: { session: { harness: string; id: string }; hits: { role: string }[] }[] = [];
    for (const until = Date.now() + 30_000; results.length === 0; await sleep(200)) {
      assert.ok(Date.now() < until, 'search did not find the prompt within 30 s of the listing');
      const found = await runCli(['search', 'quokka ledger', '--json'], env);
      assert.equal(found.code, 0, found.stderr);
      results = (found.json as unknown as { results: typeof results }).results;
    }
    assert.deepEqual(results.map((r) => [r.session.harness, r.session.id, r.hits[0]?.role]), [['opencode', fixtureSessionId(137), 'user']]);
  });
});
